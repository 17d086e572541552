import Foundation
import Testing

@testable import ODRPackPlatform

/// docs/architecture.md#paths: a path-valued argument that is not UTF-8 reaches its command as its bytes (the files
/// written have exactly the names given) and is shown escaped; where a command cannot take such a path yet, it says
/// so (exit 64) and writes nothing, never a file under a repaired name.
@Suite struct PathArgumentTests {
    let thinTests = ThinCommandTests()

    /// A built game in a fresh project.
    func built() throws -> (TemporaryProject, FilePath) {
        let project = try thinTests.builtGame()
        return (project, FilePath(project.root.path))
    }

    @Test(arguments: [
        ["report", "out", "-o", "r%.html"], ["report", "out", "--output=r%.html"],
        ["report", "-o", "d%/r.html", "out"],
        ["diff", "out", "out", "--html", "r%.html"], ["ipa", "Game.app", "out", "-o", "r%.ipa"],
    ])
    func anOutputIsWrittenUnderExactlyTheNameGiven(_ arguments: [String]) throws {
        let (project, root) = try built()
        _ = project
        let output = try #require(arguments.first { $0.contains("%") }).replacingOccurrences(of: "--output=", with: "")
        let run = try RawNames.run(arguments, in: root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Wrote \(FilePath.shownText(of: RawNames.bytes(output)))"), "\(run.stdout)")
        let written = RawNames.path(project.root, RawNames.bytes(output))
        #expect(try RawNames.names(in: written.parent).contains(Array(written.lastComponent!.bytes)))
        #expect(SystemCall.status(written)?.kind == .regular)
        // No twin under the repaired name (`r\u{FFFD}.html`).
        let repaired = Array(String(decoding: RawNames.bytes(output), as: UTF8.self).utf8)
        #expect(SystemCall.status(RawNames.path(project.root, repaired)) == nil)
        RawNames.remove(written.lastComponent!.bytes.contains(RawNames.e) ? written : written.parent)
    }

    /// Paths a command takes as text until its library does (a build folder, a manifest, the resources folder): a
    /// clear usage error that names the path escaped, and nothing written, never `out\u{FFFD}`.
    @Test(arguments: [
        (["build", "m%.yml", "-o", "o"], "MANIFEST 'm\\xe9.yml'"), (["plan", "m%.yml"], "MANIFEST 'm\\xe9.yml'"),
        (["init", "R%"], "FOLDER 'R\\xe9'"),
    ])
    func aPathThatCannotBeTakenYetIsAUsageError(_ arguments: [String], _ named: String) throws {
        let (project, root) = try built()
        _ = project
        let before = try RawNames.names(in: root)
        let run = try RawNames.run(arguments, in: root)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(
            run.stderr.hasPrefix("odrpack: error: \(named) is not UTF-8, which this command cannot take yet"),
            "\(run.stderr)")
        #expect(try RawNames.names(in: root) == before)
    }

    /// A build folder whose name is not UTF-8 (`out\xE9`, the build moved there) is read as itself by verify, thin
    /// and ipa: each says what it says for `out`, and no folder under the repaired name (`out\u{FFFD}`) appears.
    @Test func aBuildFolderWhoseNameIsNotUTF8IsReadAsItself() throws {
        let (project, root) = try built()
        _ = project
        let verified = try RawNames.run(["verify", "out"], in: root)
        #expect(verified.status == 0, "\(verified.stderr)")
        let folder = root.joined(name: RawNames.bytes("out%"))!
        try RawNames.move(root.joined("out"), to: folder)
        defer { RawNames.remove(folder) }
        let before = try RawNames.names(in: folder)
        let verify = try RawNames.run(["verify", "out%"], in: root)
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout == verified.stdout && verify.stderr.isEmpty, "\(verify.stderr)")
        let thin = try RawNames.run(["thin", "Game.app", "out%"], in: root)
        #expect(thin.status == 0, "\(thin.stderr)")
        #expect(thin.stdout.hasPrefix("Thinned Game.app: removed 6 files"), "\(thin.stdout)")
        let again = try RawNames.run(["thin", "Game.app", "out%"], in: root)
        #expect(again.stdout == "Nothing changed: Game.app was already thinned with this build\n", "\(again.stderr)")
        let ipa = try RawNames.run(["ipa", "Game.app", "out%", "-o", "Game.ipa"], in: root)
        #expect(ipa.status == 0, "\(ipa.stderr)")
        #expect(SystemCall.status(root.joined("Game.ipa"))?.kind == .regular)
        // The readers created nothing in the folder (a lock file is there from the build) and nothing beside it.
        #expect(try RawNames.names(in: folder) == before)
        let names = try RawNames.names(in: root)
        #expect(names.contains(RawNames.bytes("out%")) && !names.contains(Array("out".utf8)))
        #expect(!names.contains(Array("out\u{FFFD}".utf8)))
        let missing = try RawNames.run(["verify", "m%"], in: root)
        #expect(missing.status == 2)
        #expect(
            missing.stderr
                == "odrpack: error: 'm\\xe9' does not exist: pass a build folder or its odrpack-manifest.json\n",
            "\(missing.stderr)")
    }

    /// `build -o $'out\xE9'` writes a folder named exactly `out\xE9` (its readdir bytes), whose packs are byte for
    /// byte those of a build into `out`, and verify and thin take it; `--output=` the same, and pack folders
    /// (`--layout folder`); nothing under the repaired name. A second build into it builds again (the up-to-date fast
    /// path names outputs as text).
    @Test(arguments: [["-o", "out%"], ["--output=out%", "--layout", "folder"]])
    func aBuildIntoAFolderWhoseNameIsNotUTF8WritesThatName(_ output: [String]) throws {
        let (project, root) = try built()
        _ = project
        let folder = root.joined(name: RawNames.bytes("out%"))!
        defer { RawNames.remove(folder) }
        let build = try RawNames.run(["build"] + output, in: root)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.hasPrefix("Built ") && build.stdout.contains(" into out\\xe9: "), "\(build.stdout)")
        let names = try RawNames.names(in: root)
        #expect(names.contains(RawNames.bytes("out%")))
        #expect(!names.contains(Array("out\u{FFFD}".utf8)))
        let packs = try RawNames.names(in: folder.joined("OnDemandResources"))
        let referencePacks = try RawNames.names(in: root.joined("out/OnDemandResources"))
        #expect(!packs.isEmpty && packs == referencePacks)
        for pack in packs where !output.contains("folder") {
            let written = folder.joined("OnDemandResources").joined(name: pack)!
            let reference = root.joined("out/OnDemandResources").joined(name: pack)!
            let writtenBytes = try LocalFileSystem().contents(of: written, limit: 1 << 24).get()
            let referenceBytes = try LocalFileSystem().contents(of: reference, limit: 1 << 24).get()
            #expect(!writtenBytes.isEmpty && writtenBytes == referenceBytes)
        }
        let verify = try RawNames.run(["verify", "out%"], in: root)
        #expect(verify.status == 0 && verify.stdout.hasPrefix("verified "), "\(verify.stderr)")
        let thin = try RawNames.run(["thin", "Game.app", "out%"], in: root)
        #expect(thin.status == 0, "\(thin.stderr)")
        #expect(thin.stdout.hasPrefix("Thinned Game.app: removed 6 files"), "\(thin.stdout)")
        let again = try RawNames.run(["build"] + output, in: root)
        #expect(again.status == 0 && again.stdout.contains(" into out\\xe9: "), "\(again.stderr)")
        #expect(try RawNames.names(in: folder.joined("OnDemandResources")) == packs)
    }

    /// Where a build still hands the output folder to another program as text (a sign command, the Background Assets
    /// packager), a folder whose path is not UTF-8 is exit 64 saying so, and nothing is written.
    @Test(arguments: [
        (["--sign-command", "true"], "--sign-command"),
        (["--format", "background-assets"], "a Background Assets build"),
    ])
    func aBuildThatHandsTheFolderOnAsTextRefusesIt(_ extra: [String], _ named: String) throws {
        let (project, root) = try built()
        _ = project
        let before = try RawNames.names(in: root)
        let run = try RawNames.run(["build", "-o", "out%"] + extra, in: root)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(
            run.stderr.hasPrefix(
                "odrpack: error: --output 'out\\xe9' is in a folder whose path is not UTF-8, which \(named) cannot take yet"
            ), "\(run.stderr)")
        #expect(try RawNames.names(in: root) == before)
    }

    /// What the parser quotes from the command line is shown escaped too.
    @Test func theParsersMessagesShowTheBytesEscaped() throws {
        let (project, root) = try built()
        _ = project
        let extra = try RawNames.run(["verify", "out", "x%"], in: root)
        #expect(extra.status == 64)
        #expect(extra.stderr.hasPrefix("odrpack: error: unexpected argument 'x\\xe9'"), "\(extra.stderr)")
    }

    /// A project in a folder whose path is not UTF-8: its resources-root cannot be read yet (a resolution's paths are
    /// text), and `plan` and `build` say so, naming the path escaped, rather than that the folder does not exist.
    @Test(arguments: [["plan"], ["build", "-o", "out"], ["validate", "odrpack.yml"]])
    func aResourcesRootWhosePathIsNotUTF8IsSaidSo(_ arguments: [String]) throws {
        let project = try BuildCommandTests().gameProject()
        let folder = RawNames.path(project.root, RawNames.bytes("N%"))
        defer { RawNames.remove(folder) }
        try OutputFolder.makeFolder(folder)
        for name in try FileManager.default.contentsOfDirectory(atPath: project.root.path) where name != folder.name {
            try RawNames.move(FilePath(project.path(name)), to: folder.joined(name))
        }
        let run = try RawNames.run(arguments, in: folder)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "is at a path that is not UTF-8 (\(folder.text)/R), which odrpack cannot read resources from yet"),
            "\(run.stderr)")
        #expect(folder.text.hasSuffix("/N\\xe9"))
        #expect(SystemCall.status(folder.joined("out")) == nil)
    }
}
