import Foundation
import ODRPackReport
import Testing

@testable import ODRPackCore
@testable import ODRPackPlatform

/// docs/commands.md#conventions (SPEC 6.1): one voice for problems, --quiet, --color, one JSON envelope, exit 130.
@Suite struct ConventionsTests {
    func project() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest(
            "version: 1\nbundle-id: com.example.x\nresources:\n  - {path: a.txt, tags: [a]}\n  - {glob: \"*.caf\", tags: [b]}\n"
        )
        try project.file("a.txt", "hello")
        return project
    }

    // MARK: One voice

    @Test func usageErrorsSpeakInOdrpacksVoiceAndExit64() throws {
        let project = try project()
        let unknown = CommandRunner.runInProcess(["validate", "--no-such-flag"], in: project.root)
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr.hasPrefix(
                "odrpack: error: unknown option '--no-such-flag': see `odrpack validate --help` for the options\n"))
        #expect(unknown.stderr.contains("Usage: odrpack validate"))
        #expect(!unknown.stderr.contains("Error:"))
        #expect(unknown.stdout.isEmpty)
        let command = CommandRunner.runInProcess(["frobnicate"], in: project.root)
        #expect(command.status == 64)
        #expect(command.stderr.hasPrefix("odrpack: error: "))
        let validation = CommandRunner.runInProcess(["build", "-o", "out", "--level", "12"], in: project.root)
        #expect(validation.status == 64)
        #expect(validation.stderr.hasPrefix("odrpack: error: --level must be 0 to 9, not 12\n"))
        let profile = CommandRunner.runInProcess(["validate", "--profile", "watchos"], in: project.root)
        #expect(profile.status == 64)
        #expect(profile.stderr.hasPrefix("odrpack: error: unknown profile 'watchos'"))
        // An empty file name (an unset variable) is a bad command line wherever a command writes one.
        for arguments in [
            ["report", "--output", ""], ["diff", "a", "b", "--html", ""],
            ["import-xcode", "X.xcodeproj", "--output", ""],
        ] {
            let empty = CommandRunner.runInProcess(arguments, in: project.root)
            #expect(empty.status == 64, "\(arguments)")
            #expect(empty.stderr.hasPrefix("odrpack: error: --"), "\(arguments)")
            #expect(empty.stderr.contains(" is empty (an unset variable?)"), "\(arguments)")
        }
    }

    @Test func helpAndVersionStillExitZero() throws {
        let help = CommandRunner.runInProcess(["--help"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        #expect(help.stdout.contains("On-Demand Resources") && help.stdout.contains("Background Assets"))
        #expect(help.stdout.contains("odrpack init"))
        let version = CommandRunner.runInProcess(["--version"])
        #expect(version.status == 0 && version.stdout == "odrpack \(ToolVersion.current)\n")
    }

    /// Every subcommand's --help ends with two or three examples, `odrpack help X` too.
    @Test(
        arguments: [
            "init", "plan", "validate", "build", "verify", "diff", "thin", "report", "import-xcode", "ipa", "upload",
        ])
    func everyHelpEndsWithExamples(command: String) throws {
        for arguments in [[command, "--help"], ["help", command], [command, "-h"]] {
            let help = CommandRunner.runInProcess(arguments)
            #expect(help.status == 0)
            let parts = help.stdout.components(separatedBy: "\nEXAMPLES:\n")
            #expect(parts.count == 2, "\(arguments)")
            let examples = (parts.last ?? "").split(separator: "\n").filter { $0.hasPrefix("    odrpack \(command)") }
            #expect((2...3).contains(examples.count), "\(arguments)")
            #expect(help.stdout.hasSuffix("\n") && !help.stdout.hasSuffix("\n\n"))
            #expect(parts[0].contains("USAGE: odrpack \(command)"))
        }
    }

    @Test func toolFailuresAreExitTwoInTheSameVoice() throws {
        let empty = try TemporaryProject()
        let output = CommandRunner.runInProcess(["validate"], in: empty.root)
        #expect(output.status == 2)
        // No MANIFEST: odrpack.yml is looked for up to the file system's root (docs/commands.md#scripts).
        #expect(output.stderr.hasPrefix("odrpack: error: no odrpack.yml in '\(empty.root.path)', "))
        #expect(output.stderr.contains("odrpack init"))  // what an installed binary has, not a README it does not
    }

    // MARK: --quiet

    @Test func quietPrintsOnlyErrors() throws {
        let project = try project()
        let loud = CommandRunner.runInProcess(["validate"], in: project.root)
        #expect(loud.status == 0 && loud.stderr.contains("warning:") && !loud.stdout.isEmpty)
        for flag in ["-q", "--quiet"] {
            let quiet = CommandRunner.runInProcess(["validate", flag], in: project.root)
            #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
            let plan = CommandRunner.runInProcess(["plan", flag], in: project.root)
            #expect(plan.status == 0 && plan.stdout.isEmpty && plan.stderr.isEmpty)
        }
        let json = CommandRunner.runInProcess(["validate", "-q", "--json"], in: project.root)
        #expect(try json.json()["summary"] as? [String: Int] == ["errors": 0, "warnings": 1])
        // Errors still show.
        try project.manifest("version: 1\nbundle-id: com.example.x\nresources:\n  - {path: gone, tags: [a]}\n")
        let failing = CommandRunner.runInProcess(["validate", "-q"], in: project.root)
        #expect(failing.status == 1 && failing.stdout.isEmpty)
        // In-process, the manifest found is named by its absolute path (the run's folder is not the process's).
        #expect(failing.stderr.hasPrefix("\(project.manifestPath):4:12: error: path 'gone' does not exist"))
        let clean = try self.project()
        let build = CommandRunner.runInProcess(["build", "-q", "-o", clean.path("out")], in: clean.root)
        #expect(build.status == 0 && build.stdout.isEmpty && build.stderr.isEmpty)
        for command in [["diff", "a", "b"], ["verify", "out"], ["thin", "A.app", "out"], ["report"], ["init"]] {
            let help = CommandRunner.runInProcess(command + ["--help"])
            #expect(help.stdout.contains("-q, --quiet"), "\(command)")
            #expect(help.stdout.contains("--color <when>"), "\(command)")
        }
    }

    // MARK: --color

    @Test func colourFollowsTheFlagAndTheForcingVariables() throws {
        let project = try project()
        func validate(_ arguments: [String], _ environment: [String: String]) throws -> String {
            CommandRunner.runInProcess(["validate"] + arguments, in: project.root, environment: environment).stderr
        }
        let amber = "\u{1B}[1;33mwarning:\u{1B}[0m"
        // Not a terminal, NO_COLOR set (CommandRunner sets it): no colour, unless forced.
        #expect(try !validate([], [:]).contains("\u{1B}["))
        #expect(try validate(["--color", "always"], [:]).contains(amber))
        #expect(try validate([], ["CLICOLOR_FORCE": "1"]).contains(amber))
        #expect(try validate([], ["FORCE_COLOR": "1"]).contains(amber))
        #expect(try validate([], ["FORCE_COLOR": "true"]).contains(amber))
        #expect(try !validate([], ["FORCE_COLOR": "0"]).contains("\u{1B}["))
        #expect(try !validate([], ["CLICOLOR_FORCE": "0"]).contains("\u{1B}["))
        #expect(try !validate(["--color", "never"], ["FORCE_COLOR": "1"]).contains("\u{1B}["))
        let bad = CommandRunner.runInProcess(["validate", "--color", "sometimes"], in: project.root)
        #expect(bad.status == 64 && bad.stderr.hasPrefix("odrpack: error: "))
    }

    @Test func colourDecision() {
        let auto = Console.usesColor
        #expect(auto(.auto, true, [:]))
        #expect(!auto(.auto, false, [:]))
        #expect(!auto(.auto, true, ["NO_COLOR": "1"]))
        #expect(!auto(.auto, true, ["TERM": "dumb"]))
        #expect(auto(.auto, false, ["CLICOLOR_FORCE": "1"]))
        #expect(auto(.auto, false, ["FORCE_COLOR": "3"]))
        #expect(auto(.auto, true, ["NO_COLOR": "1", "FORCE_COLOR": "1"]))
        #expect(!auto(.auto, false, ["FORCE_COLOR": "0", "CLICOLOR_FORCE": "2"]))
        #expect(auto(.always, false, ["NO_COLOR": "1"]))
        #expect(!auto(.never, true, ["FORCE_COLOR": "1"]))
    }

    // MARK: JSON envelope

    @Test func everyJSONDocumentHasTheEnvelope() throws {
        let project = try project()
        let out = project.path("out")
        let other = project.path("other")
        #expect(CommandRunner.runInProcess(["build", "-o", out, "-q"], in: project.root).status == 0)
        #expect(CommandRunner.runInProcess(["build", "-o", other, "-q"], in: project.root).status == 0)
        let app = project.root.appendingPathComponent("My.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try PropertyListSerialization.data(
            fromPropertyList: ["CFBundleIdentifier": "com.example.x"], format: .xml, options: 0
        ).write(to: app.appendingPathComponent("Info.plist"))
        for arguments in [
            ["plan", "--json"], ["validate", "--json"], ["build", "-o", out, "--json"], ["verify", out, "--json"],
            ["diff", out, other, "--json"], ["thin", app.path, out, "--json"],
        ] {
            let output = CommandRunner.runInProcess(arguments, in: project.root)
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            #expect(output.stdout.hasPrefix("{\n  \"schemaVersion\": 1,\n"), "\(arguments)")
            let document = try output.json()
            #expect(document["schemaVersion"] as? Int == 1, "\(arguments)")
            #expect(document["diagnostics"] is [Any], "\(arguments)")
        }
    }

    @Test func failuresUnderJSONStillPrintOneDocument() throws {
        let empty = try TemporaryProject()
        let missing = CommandRunner.runInProcess(["plan", "--json"], in: empty.root)
        #expect(missing.status == 2)
        let document = try missing.json()
        #expect(Set(document.keys) == ["schemaVersion", "error", "diagnostics"])
        #expect(document["schemaVersion"] as? Int == 1)
        let error = try #require(document["error"] as? [String: String])
        #expect(error["code"] == "unusable-input")
        #expect(error["message"]?.hasPrefix("no odrpack.yml in '\(empty.root.path)'") == true)
        #expect((document["diagnostics"] as? [Any])?.isEmpty == true)
        #expect(missing.stderr.hasPrefix("odrpack: error: no odrpack.yml in "))

        let usage = CommandRunner.runInProcess(["validate", "--json", "--no-such-flag"], in: empty.root)
        #expect(usage.status == 64)
        let usageError = try #require(try usage.json()["error"] as? [String: String])
        #expect(
            usageError == [
                "code": "usage",
                "message": "unknown option '--no-such-flag': see `odrpack validate --help` for the options",
            ])

        let verify = CommandRunner.runInProcess(["verify", empty.path("nowhere"), "--json"], in: empty.root)
        #expect(verify.status == 2)
        #expect((try verify.json()["error"] as? [String: String])?["code"] == "unusable-input")
        // Without --json, stdout stays empty.
        #expect(CommandRunner.runInProcess(["verify", empty.path("nowhere")], in: empty.root).stdout.isEmpty)
    }

    @Test func envelopeKeepsDocumentsThatHaveIt() {
        let document = JSONEnvelope.wrap(.object([("a", .int(1))]))
        #expect(document.serialized() == "{\n  \"schemaVersion\": 1,\n  \"a\": 1,\n  \"diagnostics\": []\n}\n")
        let kept = "{\n  \"schemaVersion\": 1,\n  \"diagnostics\": []\n}\n"
        #expect(JSONEnvelope.wrap(serialized: kept) == kept)
        #expect(
            JSONEnvelope.wrap(serialized: "{\n  \"diagnostics\": []\n}\n")
                == "{\n  \"schemaVersion\": 1,\n  \"diagnostics\": []\n}\n")
    }

    // MARK: Ctrl-C

    /// A build waiting for another's lock is interrupted: exit 130, and the message says what was left as it was.
    @Test func interruptExits130SayingWhatWasLeft() throws {
        let project = try project()
        let lock = Locked<OutputLock?>(
            try OutputLock(folder: FilePath(project.path("out")), fileName: BuildFolder.lockFileName, wait: false) {})
        let started = try CommandRunner.startWaitingForLock(["build", "-o", "out"], in: project.root)
        let process = started.process
        process.interrupt()  // SIGINT
        process.waitUntilExit()
        let said = started.said + String(decoding: started.stderr.readDataToEndOfFile(), as: UTF8.self)
        lock.withLock { $0 = nil }
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        #expect(
            said.hasSuffix(
                "odrpack: error: interrupted: 'out' holds the previous build, or an unfinished one that the next build into it recovers\n"
            ))
        #expect(!FileManager.default.fileExists(atPath: project.path("out/odrpack-manifest.json")))
    }
}
