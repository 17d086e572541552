import Foundation
import Testing

/// docs/commands.md#scripts (SPEC 6.2, "One gate for every command"): `--warnings-as-errors` and
/// `ODRPACK_WARNINGS_AS_ERRORS=1` make any warning an error, exit 1, and a command that writes writes nothing.
@Suite struct WarningsGateTests {
    static let gates: [(arguments: [String], environment: [String: String])] = [
        (["--warnings-as-errors"], [:]), ([], ["ODRPACK_WARNINGS_AS_ERRORS": "1"]),
    ]

    /// A project whose only problem is a warning: a glob that matches nothing.
    func warned() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest(
            "version: 1\nbundle-id: com.example.gate\nresources-root: R\nresources:\n  - {path: A, tags: [a]}\n"
                + "  - {glob: \"*.caf\", tags: [b]}\n")
        try project.file("R/A/a.json", "{}")
        return project
    }

    @Test func planAndValidateFailOnAWarning() throws {
        let project = try warned()
        for command in ["plan", "validate"] {
            #expect(CommandRunner.runInProcess([command], in: project.root).status == 0)
            for gate in Self.gates {
                let output = CommandRunner.runInProcess(
                    [command] + gate.arguments, in: project.root, environment: gate.environment)
                #expect(output.status == 1, "\(command) \(gate)")
                #expect(output.stderr.hasSuffix("odrpack: error: 1 warning treated as error (--warnings-as-errors)\n"))
            }
        }
        // Any other value of the variable leaves the gate open.
        let other = CommandRunner.runInProcess(
            ["plan"], in: project.root, environment: ["ODRPACK_WARNINGS_AS_ERRORS": "0"])
        #expect(other.status == 0)
    }

    /// build writes nothing: no manifest, no pack, not even the folder's lock file.
    @Test func buildWritesNothing() throws {
        let project = try warned()
        for gate in Self.gates {
            let output = CommandRunner.runInProcess(
                ["build", "-o", project.path("out")] + gate.arguments, in: project.root, environment: gate.environment)
            #expect(output.status == 1, "\(gate)")
            #expect(output.stderr.contains("odrpack: nothing written: 0 errors, 1 warning\n"))
            #expect(output.stderr.hasSuffix("odrpack: error: 1 warning treated as error (--warnings-as-errors)\n"))
            let left = (try? FileManager.default.contentsOfDirectory(atPath: project.path("out"))) ?? []
            #expect(left.isEmpty, "\(left)")
        }
        #expect(CommandRunner.runInProcess(["build", "-o", project.path("out")], in: project.root).status == 0)
        #expect(FileManager.default.fileExists(atPath: project.path("out/odrpack-manifest.json")))
    }

    /// A build folder already up to date is no way around the gate: the warning the last build had stops this one, which
    /// says it wrote nothing (never "Built …"), and neither `--json` reports a build.
    @Test func anUpToDateBuildIsGatedToo() throws {
        let project = try warned()
        #expect(CommandRunner.runInProcess(["build", "-o", project.path("out")], in: project.root).status == 0)
        let manifest = try Data(contentsOf: URL(fileURLWithPath: project.path("out/odrpack-manifest.json")))
        for gate in Self.gates {
            let output = CommandRunner.runInProcess(
                ["build", "-o", project.path("out")] + gate.arguments, in: project.root, environment: gate.environment)
            #expect(output.status == 1, "\(gate)")
            #expect(!output.stdout.contains("Built"), "\(output.stdout)")
            #expect(output.stderr.contains("odrpack: nothing written: 0 errors, 1 warning\n"), "\(output.stderr)")
            let json = CommandRunner.runInProcess(
                ["build", "-o", project.path("out"), "--json"] + gate.arguments, in: project.root,
                environment: gate.environment)
            #expect(json.status == 1)
            let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            #expect(document?["build"] == nil, "\(json.stdout)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: project.path("out/odrpack-manifest.json"))) == manifest)
        #expect(
            CommandRunner.runInProcess(["build", "-o", project.path("out")], in: project.root).stdout.contains(
                "0 written, 1 unchanged"))
    }

    /// thin leaves the app byte for byte as it was: an app that holds none of the packs' files is a warning.
    @Test func thinLeavesTheAppUnchanged() throws {
        let project = try warned()
        try project.manifest(
            "version: 1\nbundle-id: com.example.gate\nresources-root: R\nresources:\n  - {path: A, tags: [a]}\n")
        #expect(CommandRunner.runInProcess(["build", "-o", project.path("out")], in: project.root).status == 0)
        try project.file("Game.app/Game", "executable")
        try project.file("Game.app/Info.plist", bytes: AppBundleFixture.infoPlist(bundleId: "com.example.gate"))
        let before = try AppBundleFixture.snapshot(project.path("Game.app"))
        for gate in Self.gates {
            let output = CommandRunner.runInProcess(
                ["thin", project.path("Game.app"), project.path("out")] + gate.arguments, in: project.root,
                environment: gate.environment)
            #expect(output.status == 1, "\(gate)")
            #expect(output.stderr.contains("[pack-files-not-in-app]"))
            #expect(output.stderr.contains("odrpack: the app is unchanged: 0 errors, 1 warning\n"))
            #expect(try AppBundleFixture.snapshot(project.path("Game.app")) == before)
        }
        let open = CommandRunner.runInProcess(
            ["thin", project.path("Game.app"), project.path("out")], in: project.root)
        #expect(open.status == 0)
        #expect(try AppBundleFixture.snapshot(project.path("Game.app")) != before)
    }

    /// ipa writes no IPA when the app's signature would be stale.
    @Test func ipaWritesNoIPA() throws {
        let project = try IPACommandTests().signedGame()
        for gate in Self.gates {
            let output = try CommandRunner.run(
                ["ipa", "Game.app", "out", "-o", "Game.ipa"] + gate.arguments, in: project.root,
                environment: gate.environment)
            #expect(output.status == 1, "\(gate)")
            #expect(output.stderr.contains("[app-signature-stale]"))
            #expect(output.stderr.contains("odrpack: no IPA written: 0 errors, 1 warning\n"))
            let left = try FileManager.default.contentsOfDirectory(atPath: project.path("")).filter {
                $0.hasPrefix("Game.ipa") || $0.hasPrefix(".odrpack")
            }
            #expect(left.isEmpty, "\(left)")
        }
        #expect(try CommandRunner.run(["ipa", "Game.app", "out", "-o", "Game.ipa"], in: project.root).status == 0)
        #expect(FileManager.default.fileExists(atPath: project.path("Game.ipa")))
    }

    /// import-xcode's notes are its warnings: the manifest is not written.
    @Test func importXcodeWritesNoManifest() throws {
        let project = try TemporaryProject()
        try FileManager.default.removeItem(at: project.root)
        try FileManager.default.copyItem(
            at: TestPaths.fixtures("Xcode").appendingPathComponent("Bamboo"), to: project.root)
        let arguments = ["import-xcode", "Bamboo.xcodeproj", "--target", "Bamboo"]
        for gate in Self.gates {
            let output = try CommandRunner.run(
                arguments + gate.arguments, in: project.root, environment: gate.environment)
            #expect(output.status == 1, "\(gate)")
            #expect(output.stderr.hasPrefix("note: 'Bamboo/Levels/Level2/scene.json' is also copied untagged"))
            #expect(
                output.stderr.hasSuffix(
                    "odrpack: error: 2 warnings treated as errors (--warnings-as-errors): 'odrpack.yml' not written\n"))
            #expect(!FileManager.default.fileExists(atPath: project.path("odrpack.yml")))
        }
        #expect(try CommandRunner.run(arguments, in: project.root).status == 0)
        #expect(FileManager.default.fileExists(atPath: project.path("odrpack.yml")))
    }

    /// verify, diff and upload take the gate too (one option group); with no warning it changes nothing.
    @Test func everyCommandTakesTheGate() throws {
        let project = try warned()
        try project.manifest(
            "version: 1\nbundle-id: com.example.gate\nresources-root: R\nresources:\n  - {path: A, tags: [a]}\n")
        #expect(CommandRunner.runInProcess(["build", "-o", project.path("v1")], in: project.root).status == 0)
        #expect(CommandRunner.runInProcess(["build", "-o", project.path("v2")], in: project.root).status == 0)
        #expect(
            CommandRunner.runInProcess(["verify", project.path("v1"), "--warnings-as-errors"], in: project.root).status
                == 0)
        #expect(
            CommandRunner.runInProcess(
                ["diff", project.path("v1"), project.path("v2"), "--warnings-as-errors"], in: project.root
            ).status == 0)
        for command in ["plan", "validate", "build", "verify", "thin", "ipa", "diff", "upload", "import-xcode"] {
            let help = CommandRunner.runInProcess([command, "--help"])
            #expect(help.stdout.contains("--warnings-as-errors"), "\(command)")
        }
    }
}
