import Foundation
import Testing

@testable import ODRPackCore
@testable import ODRPackPlatform

/// docs/commands.md#thin: the messages that point the right way. Files one folder down name the --resources-path that
/// finds them; a signed app is told its signature is stale; a second thin says it changed nothing.
@Suite struct ThinMessagesTests {
    let thinTests = ThinCommandTests()

    @Test func filesOneFolderDownNameTheResourcesPath() throws {
        let project = try thinTests.builtGame(subfolder: "Data/")
        let run = try CommandRunner.run(["thin", "Game.app", "out"], in: project.root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("the packs' files are one folder down, in 'Data': pass --resources-path Data"))
        #expect(run.stderr.contains("[pack-files-not-in-app]"))
        // Where they are: that path thins the app.
        let right = try CommandRunner.run(
            ["thin", "Game.app", "out", "--resources-path", "Data"], in: project.root)
        #expect(right.status == 0 && right.stderr.isEmpty, "\(right.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.app/Data/Level1/scene.json")))
    }

    @Test func aSignedAppIsToldItsSignatureIsStale() throws {
        let project = try thinTests.builtGame()
        try project.file("Game.app/_CodeSignature/CodeResources", "signature of every file")
        let run = try thinTests.thin(project)
        #expect(run.status == 0, "\(run.stderr)")
        let diagnostics = try #require(try run.json()["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["app-signature-stale"])
        #expect(
            (diagnostics.first?["message"] as? String)?.hasPrefix(
                "'Game.app' is signed, and thinning it broke its signature: sign it again") == true)
        // Under the gate the warning is an error, and the app is left as it was.
        let again = try thinTests.builtGame()
        try again.file("Game.app/_CodeSignature/CodeResources", "signature of every file")
        let before = try thinTests.appFiles(again)
        let gated = try CommandRunner.run(
            ["thin", "Game.app", "out", "--warnings-as-errors"], in: again.root)
        #expect(gated.status == 1)
        #expect(try thinTests.appFiles(again) == before)
    }

    @Test func aSecondThinSaysItChangedNothing() throws {
        let project = try thinTests.builtGame()
        let first = try CommandRunner.run(["thin", "Game.app", "out"], in: project.root)
        #expect(first.status == 0 && first.stdout.hasPrefix("Thinned Game.app: removed 6 files"), "\(first.stdout)")
        let after = try thinTests.appFiles(project)
        let second = try CommandRunner.run(["thin", "Game.app", "out"], in: project.root)
        #expect(second.status == 0)
        #expect(second.stdout == "Nothing changed: Game.app was already thinned with this build\n")
        #expect(try thinTests.appFiles(project) == after)
        #expect(try thinTests.thin(project).json()["unchanged"] as? Bool == true)
        #expect(try thinTests.thin(try thinTests.builtGame()).json()["unchanged"] as? Bool == false)
        // A signed app thinned again is not told its signature broke: nothing changed.
        try project.file("Game.app/_CodeSignature/CodeResources", "signed after thinning")
        let signed = try CommandRunner.run(["thin", "Game.app", "out"], in: project.root)
        #expect(signed.status == 0 && signed.stderr.isEmpty, "\(signed.stderr)")
    }

    /// `--embed` again with the same build: every pack already in the app as extracted, so nothing is replaced and
    /// the app's files keep their inodes; a pack changed in the app since is extracted again, and only it.
    @Test func aSecondEmbedSaysItChangedNothing() throws {
        let project = try thinTests.builtGame()
        let first = try CommandRunner.run(["thin", "Game.app", "out", "--embed"], in: project.root)
        #expect(first.status == 0 && first.stdout.hasPrefix("Thinned Game.app: removed 6 files"), "\(first.stdout)")
        let packs = project.path("Game.app/OnDemandResources")
        let names = try FileManager.default.contentsOfDirectory(atPath: packs).sorted()
        try #require(names.count == 4 && names.allSatisfy { $0.hasSuffix(".assetpack") }, "\(names)")
        let after = try thinTests.appFiles(project)
        let inode = { (path: String) in SystemCall.status(FilePath(path), followingLinks: false)?.stamp.inode }
        let before = inode(packs + "/" + names[0])

        let second = try CommandRunner.run(["thin", "Game.app", "out", "--embed", "--json"], in: project.root)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try second.json()["unchanged"] as? Bool == true)
        let plain = try CommandRunner.run(["thin", "Game.app", "out", "--embed"], in: project.root)
        #expect(plain.stdout == "Nothing changed: Game.app was already thinned with this build\n", "\(plain.stdout)")
        #expect(try thinTests.appFiles(project) == after)
        #expect(inode(packs + "/" + names[0]) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: packs).sorted() == names)

        // One pack's Info.plist changed in the app: that pack is extracted again, the thin is no longer "unchanged".
        let changed = packs + "/" + names[1] + "/Info.plist"
        let original = try Data(contentsOf: URL(fileURLWithPath: changed))
        try Data("changed".utf8).write(to: URL(fileURLWithPath: changed))
        let third = try CommandRunner.run(["thin", "Game.app", "out", "--embed", "--json"], in: project.root)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(try third.json()["unchanged"] as? Bool == false)
        #expect(try Data(contentsOf: URL(fileURLWithPath: changed)) == original)
        #expect(inode(packs + "/" + names[0]) == before)
        #expect(try thinTests.appFiles(project) == after)
    }
}
