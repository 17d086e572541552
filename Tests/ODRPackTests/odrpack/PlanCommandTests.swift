import Foundation
import Testing

/// `odrpack plan` and `validate` through the built binary: exit codes and JSON documents.
@Suite struct PlanCommandTests {
    func cleanProject() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.clean
            resources-root: R
            resources:
              - {path: Level1, tags: [level1]}
              - {path: Shared/paddle.png, tags: [level1, level2]}
              - {path: Level2, tags: [level2]}
            initial-install: [level1]
            prefetch-order: [level2]
            """)
        try project.file("R/Level1/scene.json", "{\"level\": 1}")
        try project.file("R/Level2/scene.json", "{\"level\": 22}")
        try project.file("R/Shared/paddle.png", "PNG")
        try project.file("R/UI/menu.json", "{}")
        return project
    }

    @Test func cleanProjectPlanJSON() throws {
        let project = try cleanProject()
        let output = CommandRunner.runInProcess(["plan", "--json"], in: project.root)
        #expect(output.status == 0)
        let document = try output.json()
        #expect(document["schemaVersion"] as? Int == 1)
        #expect(document["bundleId"] as? String == "com.example.clean")
        #expect(document["profile"] as? String == "default")
        #expect((document["diagnostics"] as? [Any])?.isEmpty == true)
        #expect(document["initialInstallTags"] as? [String] == ["level1"])
        #expect(document["prefetchOrder"] as? [String] == ["level2"])
        let limits = try #require(document["limits"] as? [String: Any])
        #expect(limits["max-pack-size"] as? Int == 512_000_000)
        #expect(limits["max-initial-install-size"] is NSNull)
        #expect(limits.count == 7)
        let appBundle = try #require(document["appBundle"] as? [String: Any])
        #expect(appBundle["files"] as? Int == 1)
        #expect(appBundle["size"] as? Int == 2)
        let totals = try #require(document["totals"] as? [String: Any])
        #expect(totals["packs"] as? Int == 3)
        #expect(totals["size"] as? Int == 28)
        #expect(totals["initialInstallSize"] as? Int == 15)
        #expect(totals["initialPrefetchSize"] as? Int == 28)
        #expect(totals["archiveSize"] == nil)
        let packs = try #require(document["packs"] as? [[String: Any]])
        #expect(packs.map { $0["id"] as? String ?? "" } == packs.map { $0["id"] as? String ?? "" }.sorted())
        let shared = try #require(packs.first { ($0["tags"] as? [String]) == ["level1", "level2"] })
        #expect(shared["category"] as? String == "initial-install")
        #expect(shared["priority"] as? Double == 1.0)
        #expect(shared["size"] as? Int == 3)
        #expect(shared["archiveSha256"] == nil && shared["contentHash"] == nil)
        let files = try #require(shared["files"] as? [[String: Any]])
        #expect(files.count == 1 && files[0]["path"] as? String == "Shared/paddle.png" && files[0]["sha256"] == nil)
        let id = try #require(shared["id"] as? String)
        #expect(
            shared["file"] as? String == "OnDemandResources/com.example.clean.level1+level2-\(id.suffix(32)).assetpack")
        let tags = try #require(document["tags"] as? [[String: Any]])
        #expect(tags.map { $0["name"] as? String } == ["level1", "level2"])
        #expect(tags[1]["size"] as? Int == 16)
        #expect(tags[1]["category"] as? String == "prefetch")
        #expect((tags[1]["packs"] as? [String])?.count == 2)
    }

    @Test func cleanProjectHumanPlanAndValidate() throws {
        let project = try cleanProject()
        let plan = CommandRunner.runInProcess(["plan", project.manifestPath], in: project.root)
        #expect(plan.status == 0)
        #expect(plan.stdout.contains("level1+level2"))
        #expect(plan.stdout.contains("initial-install"))
        #expect(plan.stderr.isEmpty)
        let validate = CommandRunner.runInProcess(["validate", "--json"], in: project.root)
        #expect(validate.status == 0)
        let summary = try #require(try validate.json()["summary"] as? [String: Int])
        #expect(summary == ["errors": 0, "warnings": 0])
    }

    @Test func warningsPassUnlessWarningsAreErrors() throws {
        let project = try cleanProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.clean
            resources-root: R
            resources:
              - {path: Level1, tags: [level1]}
              - {glob: "**/*.caf", tags: [audio]}
            """)
        let validate = CommandRunner.runInProcess(["validate", "--json"], in: project.root)
        #expect(validate.status == 0)
        let document = try validate.json()
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1)
        #expect(diagnostics[0]["severity"] as? String == "warning")
        #expect(diagnostics[0]["code"] as? String == "entry-matches-nothing")
        #expect(diagnostics[0]["file"] as? String == project.manifestPath)
        #expect(diagnostics[0]["line"] as? Int == 6)
        #expect(diagnostics[0]["column"] as? Int == 12)
        #expect(diagnostics[0]["subject"] as? String == "**/*.caf")
        #expect(Set(diagnostics[0].keys) == ["severity", "code", "message", "file", "line", "column", "subject"])
        #expect(document["summary"] as? [String: Int] == ["errors": 0, "warnings": 1])
        let strict = CommandRunner.runInProcess(["validate", "--warnings-as-errors"], in: project.root)
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("\(project.manifestPath):6:12: warning: glob '**/*.caf' matches no file"))
        #expect(strict.stderr.contains("[entry-matches-nothing]"))
        #expect(strict.stderr.hasSuffix("odrpack: error: 1 warning treated as error (--warnings-as-errors)\n"))
        // --quiet prints only errors: under --warnings-as-errors the warnings that fail the run are those.
        for command in ["validate", "plan"] {
            let quiet = CommandRunner.runInProcess([command, "--warnings-as-errors", "-q"], in: project.root)
            #expect(quiet.status == 1)
            #expect(quiet.stdout.isEmpty)
            #expect(
                quiet.stderr
                    == """
                    \(project.manifestPath):6:12: warning: glob '**/*.caf' matches no file: check the pattern (paths are relative \
                    to resources-root); allow it: allow: [entry-matches-nothing] [entry-matches-nothing]
                    odrpack: error: 1 warning treated as error (--warnings-as-errors)

                    """)
        }
    }

    @Test func errorsExitOne() throws {
        let project = try cleanProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.clean
            resources-root: R
            resources:
              - {path: Level1, tags: [level1]}
            limits:
              max-pack-size: 10B
            """)
        let plan = CommandRunner.runInProcess(["plan", "--json"], in: project.root)
        #expect(plan.status == 1)
        let diagnostics = try #require(try plan.json()["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["pack-too-large"])  // max-tag-size keeps its 512 MB
        let human = CommandRunner.runInProcess(["validate"], in: project.root)
        #expect(human.status == 1)
        #expect(
            human.stderr.contains(
                "\(project.manifestPath):5:12: error: pack and tag 'level1' is 12 B, over the 10 B limit"))
        #expect(human.stdout.contains("1 pack, 1 tagged file, 12 B; 1 error, 0 warnings"))
    }

    @Test func manifestErrorsExitOneWithLocations() throws {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.x\nresourses: []\n")
        let output = CommandRunner.runInProcess(["validate", "--json"], in: project.root)
        #expect(output.status == 1)
        let diagnostics = try #require(try output.json()["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["code"] as? String == "manifest-unknown-key")
        #expect(diagnostics.first?["line"] as? Int == 3)
        let plan = CommandRunner.runInProcess(["plan", "--json"], in: project.root)
        #expect(plan.status == 1)
        #expect(try plan.json()["packs"] == nil)
    }

    @Test func exitCodesForToolAndCommandLineFailures() throws {
        let project = try TemporaryProject()
        #expect(CommandRunner.runInProcess(["validate"], in: project.root).status == 2)  // no manifest
        #expect(CommandRunner.runInProcess(["validate", "--profile", "watchos"], in: project.root).status == 64)
        #expect(CommandRunner.runInProcess(["validate", "--no-such-flag"], in: project.root).status == 64)
        #expect(CommandRunner.runInProcess(["frobnicate"], in: project.root).status == 64)
    }

    @Test func profileFlagOverridesTheManifest() throws {
        let project = try cleanProject()
        let output = CommandRunner.runInProcess(["plan", "--json", "--profile", "ios18"], in: project.root)
        let document = try output.json()
        #expect(document["profile"] as? String == "ios18")
        #expect((document["limits"] as? [String: Any])?["max-pack-size"] as? Int == 8_000_000_000)
    }
}

/// docs/commands.md: a write to stdout that fails is exit 2 with a message, never a crash.
@Suite struct OutputFailureTests {
    @Test(
        .enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full")),
        arguments: [["plan", "--json"], ["validate", "--json"], ["plan"]])
    func aFullStdoutIsExitTwo(arguments: [String]) throws {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.x\nresources:\n  - {path: a.txt, tags: [a]}\n")
        try project.file("a.txt", "hello")
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = arguments
        process.currentDirectoryURL = project.root
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 2)
        #expect(message.contains("cannot write to standard output"))
    }
}

/// docs/commands.md: colour only on a terminal, never with NO_COLOR or TERM=dumb (run under `script`, which gives a pty).
@Suite struct TerminalColourTests {
    func validateOnATerminal(_ environment: [String: String]) throws -> String {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.x\nresources:\n  - {path: a.txt, tags: [\" a\"]}\n")
        try project.file("a.txt", "x")
        var env = ["TERM": "xterm-256color"]
        for (key, value) in environment { env[key] = value }
        let exports = env.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let unset = environment["NO_COLOR"] == nil ? "unset NO_COLOR; " : ""
        let output = try CommandRunner.run(
            ["-qec", "\(unset)env \(exports) \(CommandRunner.executable.path) validate", "/dev/null"],
            in: project.root, executable: URL(fileURLWithPath: "/usr/bin/script"))
        return output.stdout
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func colourOnlyOnATerminalAndNeverWhenAskedNot() throws {
        #expect(try validateOnATerminal([:]).contains("\u{1B}[1;33mwarning:"))
        #expect(try !validateOnATerminal(["NO_COLOR": "1"]).contains("\u{1B}["))
        #expect(try !validateOnATerminal(["TERM": "dumb"]).contains("\u{1B}["))
        // Not a terminal: plain text.
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.x\nresources:\n  - {path: a.txt, tags: [\" a\"]}\n")
        try project.file("a.txt", "x")
        let piped = try CommandRunner.run(
            ["-u", "NO_COLOR", CommandRunner.executable.path, "validate"], in: project.root,
            environment: ["TERM": "xterm-256color"], executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(piped.stderr.contains("warning:") && !piped.stderr.contains("\u{1B}["))
    }
}
