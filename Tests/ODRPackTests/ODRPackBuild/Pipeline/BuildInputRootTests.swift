import Foundation
import Testing

/// `build`, `validate` and `plan` with `--input-root` (docs/commands.md#input-root), through the binary: a
/// resources-root leading out of the folder is exit 2 before anything is read or written, and inside it the build
/// writes exactly the bytes it writes without the option.
@Suite struct BuildInputRootTests {
    let builds = BuildCommandTests()

    /// The game's manifest and resources moved to `in/game/`, its resources-root replaced.
    func project(resourcesRoot: String) throws -> TemporaryProject {
        let project = try builds.gameProject()
        try FileManager.default.createDirectory(
            atPath: project.path("in/game"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: project.path("R"), toPath: project.path("in/game/R"))
        let manifest = try String(contentsOfFile: project.manifestPath, encoding: .utf8)
        try project.manifest(
            manifest.replacingOccurrences(of: "resources-root: R", with: "resources-root: \(resourcesRoot)"),
            name: "in/game/odrpack.yml")
        try project.file("host/Level1/secret.json", "{\"host\": true}")
        return project
    }

    @Test func insideTheRootTheBuildIsTheSameByteForByte() throws {
        let project = try project(resourcesRoot: "R")
        let template = ["--template-path", "/odrpack/game", "--no-cache"]
        #expect(
            try CommandRunner.run(
                ["build", "in/game/odrpack.yml", "-o", "plain"] + template, in: project.root
            ).status == 0)
        let confined = try CommandRunner.run(
            ["build", "in/game/odrpack.yml", "-o", "confined", "--input-root", "in"] + template, in: project.root)
        #expect(confined.status == 0, "\(confined.stderr)")
        let plain = try builds.contents(project.root.appendingPathComponent("plain"))
        #expect(plain.keys.contains("odrpack-manifest.json"))
        #expect(try builds.contents(project.root.appendingPathComponent("confined")) == plain)
    }

    /// `../..` (the folder holding the root) and an absolute path: exit 2 naming where it leads, no output folder.
    @Test(arguments: ["build", "validate", "plan"])
    func aResourcesRootLeadingOutIsExit2(command: String) throws {
        for absolute in [false, true] {
            let project = try project(resourcesRoot: "../..")
            let written = absolute ? project.path("host") : "../.."
            if absolute {
                let manifest = try String(contentsOfFile: project.path("in/game/odrpack.yml"), encoding: .utf8)
                try project.manifest(
                    manifest.replacingOccurrences(of: "resources-root: ../..", with: "resources-root: \(written)"),
                    name: "in/game/odrpack.yml")
            }
            let leads = absolute ? written : project.root.path
            let output = try CommandRunner.run(
                [command, "in/game/odrpack.yml", "--input-root", "in"] + (command == "build" ? ["-o", "out"] : []),
                in: project.root)
            #expect(output.status == 2)
            #expect(
                output.stderr
                    == """
                    odrpack: error: resources-root '\(written)' leads to '\(leads)', outside --input-root 'in': \
                    odrpack reads no file outside it (the inputs a build system declared); make resources-root a \
                    relative path to a folder inside it (Bazel: in the manifest's package, its files in srcs)

                    """, "\(command) \(written)")
            #expect(!FileManager.default.fileExists(atPath: project.path("out")))
        }
    }

    /// Inside the root, a resource link that leaves resources-root stays the error it always is (path-outside-root),
    /// so nothing under the root leads out either.
    @Test func aLinkLeavingResourcesRootIsStillAnError() throws {
        let project = try project(resourcesRoot: "R")
        try project.symlink("in/game/R/Level1/secret.json", to: project.path("host/Level1/secret.json"))
        let output = try CommandRunner.run(
            ["build", "in/game/odrpack.yml", "--input-root", "in", "-o", "out"], in: project.root)
        #expect(output.status == 1)
        #expect(output.stdout.contains("path-outside-root") || output.stderr.contains("path-outside-root"))
        #expect(!FileManager.default.fileExists(atPath: project.path("out/OnDemandResources")))
    }

    @Test func aMissingRootIsExit2() throws {
        let project = try project(resourcesRoot: "R")
        let output = try CommandRunner.run(
            ["validate", "in/game/odrpack.yml", "--input-root", "missing"], in: project.root)
        #expect(output.status == 2)
        #expect(output.stderr == "odrpack: error: cannot read --input-root 'missing': No such file or directory\n")
    }
}
