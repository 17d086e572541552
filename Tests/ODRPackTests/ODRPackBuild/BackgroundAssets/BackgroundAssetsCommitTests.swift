import Foundation
import Testing

@testable import ODRPackBuild

/// docs/background-assets.md with docs/build-output.md#atomic: versions never go backwards, whatever happened to the
/// build before (a failure or a kill in its commit), and `site/` files are hard links of the archives.
@Suite struct BackgroundAssetsCommitTests {
    func versions(_ fixture: BackgroundAssetsFixture, _ folder: String = "out") throws -> [String: Int] {
        let packs = try fixture.json(folder + "/odrpack-manifest.json")["packs"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: packs.map { ($0["assetPackId"] as! String, $0["version"] as! Int) })
    }

    let selfHosted = ["--url-prefix", "https://cdn.example.com/packs"]

    /// A commit that fails (an archive that cannot be replaced) leaves DIR as it was; the versions of the next build
    /// continue from the last finished one, as do those after a kill that left the journal.
    @Test(.enabled(if: SystemAbilities.canMakeImmutable, "needs root and chattr"))
    func versionsContinueAfterAFailedOrInterruptedCommit() throws {
        let fixture = try BackgroundAssetsFixture(background: "background-assets: {hosting: self}")
        let level1 = expectedAssetPackID(["level1"])
        #expect(try fixture.build(selfHosted).status == 0)
        try fixture.project.file("R/Level1/scene.json", "two")
        #expect(try fixture.build(selfHosted).status == 0)
        #expect(try versions(fixture)[level1] == 1)

        let archive = fixture.project.path("out/BackgroundAssets/\(level1).aar")
        let chattr = URL(fileURLWithPath: "/usr/bin/chattr")
        try #require(try CommandRunner.run(["+i", archive], executable: chattr).status == 0, "chattr +i was refused")
        let before = try OwnershipTests.snapshot(fixture.project.path("out"))
        try fixture.project.file("R/Level1/scene.json", "three")
        try fixture.project.file("R/Level2/scene.json", "three")
        let failed = try fixture.build(selfHosted)
        _ = try CommandRunner.run(["-i", archive], executable: chattr)
        #expect(failed.status == 2)
        #expect(try OwnershipTests.snapshot(fixture.project.path("out")) == before)
        #expect(try fixture.run(["verify", "out"]).status == 0)
        #expect(try fixture.build(selfHosted).status == 0)
        let third = try versions(fixture)
        #expect(third[level1] == 2 && third[expectedAssetPackID(["level 2"])] == 1, "\(third)")

        // As a kill in the commit leaves it: the previous manifest is the journal, a pack already replaced.
        try FileManager.default.moveItem(
            atPath: fixture.project.path("out/odrpack-manifest.json"),
            toPath: fixture.project.path("out/" + OutputOwnership.journalName))
        try fixture.project.file("R/Level1/scene.json", "four")
        #expect(try fixture.build(selfHosted).status == 0)
        var fourth = third
        fourth[level1] = 3
        #expect(try versions(fixture) == fourth)
        #expect(!FileManager.default.fileExists(atPath: fixture.project.path("out/" + OutputOwnership.journalName)))
        #expect(try fixture.run(["verify", "out"]).status == 0)
    }

    /// Builds killed at random moments, content changing between them: after each finished build, no pack's version
    /// is lower than after the one before, and the folder verifies.
    @Test func versionsNeverDecreaseThroughKills() throws {
        let fixture = try BackgroundAssetsFixture()
        #expect(try fixture.build().status == 0)
        var last = try versions(fixture)
        // Seeded and printed, so that a failing order of kills can be replayed (ODRPACK_TEST_SEED=<seed>).
        let seed =
            ProcessInfo.processInfo.environment["ODRPACK_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        print("versionsNeverDecreaseThroughKills: seed \(seed)")
        var generator = SplitMix64(state: seed)
        for round in 0..<TestLevel.rounds(3, full: 8) {
            try fixture.project.file("R/Level1/scene.json", "round \(round)")
            try fixture.project.file("R/Level2/Deep/texture.png", "round \(round / 2)")
            let process = Process()
            process.executableURL = CommandRunner.executable
            process.arguments = [
                "build", "--format", "background-assets", "-o", "out", "--ba-package",
                BackgroundAssetsFixture.packagerCommand,
            ]
            process.currentDirectoryURL = fixture.project.root
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 0..<150_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let finished = try fixture.build()
            #expect(finished.status == 0, "\(finished.stderr)")
            let now = try versions(fixture)
            for (id, version) in last {
                #expect((now[id] ?? Int.max) >= version, "seed \(seed), round \(round): \(id)")
            }
            last = now
            #expect(try fixture.run(["verify", "out"]).status == 0)
        }
        // A round of new content for level1 each: its version counts them (a rebuild after a kill adds nothing).
        #expect(last[expectedAssetPackID(["level1"])] == TestLevel.rounds(3, full: 8))
    }

    /// `site/NAME` is a hard link of `BackgroundAssets/<id>.aar` (SPEC 12): one copy of the bytes on disk.
    @Test func siteFilesAreHardLinksOfTheArchives() throws {
        let fixture = try BackgroundAssetsFixture(background: "background-assets: {hosting: self}")
        #expect(try fixture.build(selfHosted).status == 0)
        let manifest = try fixture.json("out/odrpack-manifest.json")
        for pack in manifest["packs"] as? [[String: Any]] ?? [] {
            let id = pack["assetPackId"] as! String
            let name = id + "-" + (pack["contentHash"] as! String).prefix(16)
            let archive = try FileManager.default.attributesOfItem(
                atPath: fixture.project.path("out/BackgroundAssets/\(id).aar"))
            let site = try FileManager.default.attributesOfItem(
                atPath: fixture.project.path("out/BackgroundAssets/site/\(name)"))
            #expect(archive[.systemFileNumber] as? Int == site[.systemFileNumber] as? Int, "\(name)")
            #expect(archive[.referenceCount] as? Int == 2)
        }
        // A user's file in site/ stays.
        try fixture.project.file("out/BackgroundAssets/site/README", "mine")
        try fixture.project.file("R/Level1/scene.json", "changed")
        #expect(try fixture.build(selfHosted).status == 0)
        #expect(try fixture.text("out/BackgroundAssets/site/README") == "mine")
    }
}
