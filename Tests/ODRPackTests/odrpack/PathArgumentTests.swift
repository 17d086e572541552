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
        (["build", "-o", "out%"], "--output 'out\\xe9'"), (["build", "--output=out%"], "--output 'out\\xe9'"),
        (["build", "m%.yml", "-o", "o"], "MANIFEST 'm\\xe9.yml'"), (["plan", "m%.yml"], "MANIFEST 'm\\xe9.yml'"),
        (["verify", "out%"], "BUILD_DIR 'out\\xe9'"), (["thin", "Game.app", "out%"], "BUILD_DIR 'out\\xe9'"),
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
