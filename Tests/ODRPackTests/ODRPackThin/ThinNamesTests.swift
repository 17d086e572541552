import Foundation
import Testing

@testable import ODRPackPlatform

/// docs/architecture.md#paths for `thin`: an app holding names that are not UTF-8, in a folder whose own name is not
/// UTF-8 either (the current folder, and the app given by a path through it), is thinned as any other; its such files
/// stay byte for byte, and a second thin says it changed nothing.
@Suite struct ThinNamesTests {
    let thinTests = ThinCommandTests()

    /// The built game moved into `N\xE9/` of its project, its app holding `caf\xE9.txt`, `d\xFF/x` and a link `l\xE9`
    /// to the first. Built in the project's UTF-8 folder, then moved: the build itself stays there.
    func gameInNonUTF8Folder() throws -> (project: TemporaryProject, folder: FilePath) {
        let project = try thinTests.builtGame()
        let folder = RawNames.path(project.root, RawNames.bytes("N%"))
        try OutputFolder.makeFolder(folder)
        for name in ["Game.app", "out"] {
            try RawNames.move(FilePath(project.path(name)), to: folder.joined(name))
        }
        try RawNames.write(folder.joined("Game.app").joined(name: RawNames.bytes("caf%.txt"))!, "caf\u{E9}")
        try RawNames.write(folder.joined("Game.app").joined(name: RawNames.bytes("d%", 0xFF))!.joined("x"), "x")
        #expect(
            SystemCall.makeLink(
                folder.joined("Game.app").joined(name: RawNames.bytes("l%"))!, target: RawNames.bytes("caf%.txt"))
                == nil)
        return (project, folder)
    }

    /// What thin must leave of the app's own names that are not UTF-8.
    func expectNamesKept(_ app: FilePath) throws {
        let names = try RawNames.names(in: app)
        for name in [RawNames.bytes("caf%.txt"), RawNames.bytes("d%", 0xFF), RawNames.bytes("l%")] {
            #expect(names.contains(name), "\(FilePath.shownText(of: name))")
        }
        let file = app.joined(name: RawNames.bytes("caf%.txt"))!
        #expect(try LocalFileSystem().contents(of: file, limit: 100).get() == Array("caf\u{E9}".utf8))
        #expect(try SystemCall.linkTarget(app.joined(name: RawNames.bytes("l%"))!) == RawNames.bytes("caf%.txt"))
    }

    @Test(arguments: [[], ["--embed"], ["--dry-run"]])
    func thinRunsInAFolderWhoseNameIsNotUTF8(_ extra: [String]) throws {
        let (project, folder) = try gameInNonUTF8Folder()
        defer { RawNames.remove(folder) }
        _ = project
        let first = try RawNames.run(["thin", "Game.app", "out"] + extra, in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.isEmpty, "\(first.stderr)")
        if extra == ["--dry-run"] {
            #expect(
                first.stdout.hasSuffix("Dry run: thin would remove 6 files (88.6 KB) from Game.app; nothing changed\n"))
        } else {
            #expect(first.stdout.hasPrefix("Thinned Game.app: removed 6 files"), "\(first.stdout)")
        }
        try expectNamesKept(folder.joined("Game.app"))
        if extra == ["--embed"] {
            let packs = try RawNames.names(in: folder.joined("Game.app").joined("OnDemandResources"))
            let built = try RawNames.names(in: folder.joined("out/OnDemandResources"))
            #expect(!packs.isEmpty && packs == built)
        }
        if extra.isEmpty {
            let second = try RawNames.run(["thin", "Game.app", "out"], in: folder)
            #expect(second.stdout == "Nothing changed: Game.app was already thinned with this build\n")
            try expectNamesKept(folder.joined("Game.app"))
        }
    }

    /// The app and the build folder named through the folder from a UTF-8 current folder: the app's path holds the
    /// byte and reaches thin as itself; the message names it escaped.
    @Test func anAppGivenByAPathThatIsNotUTF8IsThinned() throws {
        let (project, folder) = try gameInNonUTF8Folder()
        defer { RawNames.remove(folder) }
        try RawNames.move(folder.joined("out"), to: FilePath(project.path("out")))
        let thinned = try RawNames.run(["thin", "N%/Game.app", "out"], in: FilePath(project.root.path))
        #expect(thinned.status == 0, "\(thinned.stderr)")
        #expect(thinned.stdout.hasPrefix("Thinned N\\xe9/Game.app: removed 6 files"), "\(thinned.stdout)")
        try expectNamesKept(folder.joined("Game.app"))
        let missing = try RawNames.run(["thin", "N%/Missing.app", "out"], in: FilePath(project.root.path))
        #expect(missing.status == 2)
        #expect(
            missing.stderr
                == "odrpack: error: 'N\\xe9/Missing.app' is not a folder: pass the built app bundle (MyGame.app)\n")
    }
}
