import Foundation
import ODRPackCore
import Testing

@testable import ODRPackPlatform
@testable import ODRPackThin

/// `thin` at the edges (docs/commands.md#thin, issue 35): swapped and nested arguments, a build folder it only
/// reads, failures that must leave the app byte for byte, and the apps real build systems make.
@Suite struct ThinSafetyTests {
    let thinTests = ThinCommandTests()

    func thin(_ project: TemporaryProject, _ arguments: [String]) throws -> CommandRunner.Output {
        try CommandRunner.run(["thin"] + arguments, in: project.root)
    }

    func diagnostics(_ output: CommandRunner.Output) throws -> [[String: Any]] {
        try #require(try output.json()["diagnostics"] as? [[String: Any]])
    }

    /// `thin DIR DIR` deleted every pack; an app inside the build folder or a build folder inside the app is the same
    /// mistake: exit 2, nothing changed anywhere.
    @Test func theAppAndTheBuildFolderMustBeApart() throws {
        let project = try thinTests.builtGame()
        let build = try AppBundleFixture.snapshot(project.path("out"))
        let same = try thin(project, ["out", "out"])
        #expect(same.status == 2 && same.stderr.contains("one folder"), "\(same.stderr)")
        #expect(try thin(project, ["out/", "./out", "--embed"]).status == 2)
        #expect(try AppBundleFixture.snapshot(project.path("out")) == build)

        // An app inside the build folder.
        try project.file("out/Inner.app/Info.plist", bytes: AppBundleFixture.infoPlist(bundleId: "com.example.build"))
        let inner = try thin(project, ["out/Inner.app", "out"])
        #expect(inner.status == 2 && inner.stderr.contains("one inside the other"), "\(inner.stderr)")
        try FileManager.default.removeItem(atPath: project.path("out/Inner.app"))
        #expect(try AppBundleFixture.snapshot(project.path("out")) == build)

        // A build folder inside the app.
        try FileManager.default.copyItem(atPath: project.path("out"), toPath: project.path("Game.app/Build"))
        let app = try AppBundleFixture.snapshot(project.path("Game.app"))
        let nested = try thin(project, ["Game.app", "Game.app/Build"])
        #expect(nested.status == 2 && nested.stderr.contains("one inside the other"), "\(nested.stderr)")
        #expect(try AppBundleFixture.snapshot(project.path("Game.app")) == app)
    }

    /// thin never creates or changes a file in BUILD_DIR: no lock file where there was none, and swapped arguments,
    /// a folder without a build manifest or an app without Info.plist are exit 2 with nothing written.
    @Test func thinNeverWritesInTheBuildFolder() throws {
        let project = try thinTests.builtGame()
        try FileManager.default.removeItem(atPath: project.path("out/.odrpack.lock"))
        let build = try AppBundleFixture.snapshot(project.path("out"))
        let output = try thin(project, ["Game.app", "out", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try AppBundleFixture.snapshot(project.path("out")) == build)

        let app = try AppBundleFixture.snapshot(project.path("Game.app"))
        let swapped = try thin(project, ["out", "Game.app"])
        #expect(swapped.status == 2 && swapped.stderr.contains("odrpack-manifest.json"), "\(swapped.stderr)")
        try project.folder("Empty")
        #expect(try thin(project, ["Game.app", "Empty"]).status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.path("Empty")).isEmpty)
        #expect(try AppBundleFixture.snapshot(project.path("Game.app")) == app)
        #expect(try AppBundleFixture.snapshot(project.path("out")) == build)

        // An app bundle without Info.plist (nor Contents/Info.plist) is no app.
        try FileManager.default.removeItem(atPath: project.path("Game.app/Info.plist"))
        try project.file(
            "Game.app/Level1/scene.json",
            bytes: try Data(contentsOf: project.root.appendingPathComponent("R/Level1/scene.json")))
        let noInfo = try thin(project, ["Game.app", "out"])
        #expect(noInfo.status == 2 && noInfo.stderr.contains("no Info.plist"), "\(noInfo.stderr)")
        #expect(FileManager.default.fileExists(atPath: project.path("Game.app/Level1/scene.json")))
    }

    /// The same refusals as the library throws them (what `ipa` calls too): the facts, the paths as given.
    @Test func theInputChecksThrowTheirFacts() throws {
        let project = try thinTests.builtGame()
        let (app, build) = (FilePath(project.path("Game.app")), FilePath(project.path("out")))
        #expect(throws: ODRPackError.thin(.noBuildManifest(build: app))) {
            _ = try AppThinner.checkInputs(app: build, build: app)
        }
        #expect(throws: ODRPackError.thin(.appAndBuildOverlap(app: build, build: build, sameFolder: true))) {
            _ = try AppThinner.checkInputs(app: build, build: build)
        }
        let missing = FilePath(project.path("Missing.app"))
        #expect(throws: ODRPackError.thin(.appNotAFolder(missing))) {
            _ = try AppThinner.checkInputs(app: missing, build: build)
        }
        #expect(try AppThinner.checkInputs(app: app, build: build) == build)

        var options = AppThinner.Options(appPath: app, buildPath: build)
        options.resourcesPath = "../Data"
        #expect(throws: ODRPackError.thin(.resourcesPathNotRelative("../Data"))) {
            _ = try AppThinner(options: options).locate()
        }
        options.resourcesPath = "Nowhere"
        #expect(throws: ODRPackError.thin(.resourcesPathNotAFolder("Nowhere", app: app))) {
            _ = try AppThinner(options: options).locate()
        }
    }

    /// thin (and ipa) take the build folder's lock shared: while a build holds it, they wait, saying so, and change
    /// nothing; once it is released they run as usual.
    @Test(arguments: [["thin", "Game.app", "out"], ["ipa", "Game.app", "out", "-o", "Game.ipa"]])
    func aBuildInProgressIsWaitedFor(arguments: [String]) throws {
        let project = try thinTests.builtGame()
        let lock = Locked<OutputLock?>(
            try OutputLock(folder: FilePath(project.path("out")), fileName: BuildFolder.lockFileName, wait: false) {})
        let before = try AppBundleFixture.snapshot(project.path("Game.app"))
        let (process, said, _) = try CommandRunner.startWaitingForLock(arguments, in: project.root)
        #expect(said.contains("waiting for it to finish"))
        #expect(try AppBundleFixture.snapshot(project.path("Game.app")) == before)
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.ipa")))
        lock.withLock { $0 = nil }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// A build folder with a lock file is locked, not written: its bytes and its lock file stay as they are.
    @Test func anExistingLockFileIsUsedNotChanged() throws {
        let project = try thinTests.builtGame()
        if !FileManager.default.fileExists(atPath: project.path("out/.odrpack.lock")) {
            try project.file("out/.odrpack.lock", "")
        }
        let build = try AppBundleFixture.snapshot(project.path("out"))
        #expect(try thin(project, ["Game.app", "out"]).status == 0)
        #expect(try AppBundleFixture.snapshot(project.path("out")) == build)
    }

    /// An error after the first removal (a file that cannot be replaced) puts every removed file back: the app is
    /// byte for byte as it was, with no temporary left in it. Root ignores permissions, so it makes the file
    /// immutable; others make a folder read-only.
    @Test func aFailureMidwayLeavesTheAppAsItWas() throws {
        let project = try thinTests.builtGame()
        // An old OnDemandResources.plist that thin must replace after it moved the packed files aside.
        try project.file("Game.app/OnDemandResources.plist", "an older one")
        let before = try AppBundleFixture.snapshot(project.path("Game.app"))
        func check(_ output: CommandRunner.Output) throws {
            #expect(output.status == 2, "\(output.stderr)")
            #expect(output.stderr.contains("OnDemandResources.plist") || output.stderr.contains("Tutorial"))
            #expect(try AppBundleFixture.snapshot(project.path("Game.app")) == before)
        }
        if getuid() == 0 {
            try AppBundleFixture.withImmutable(project.path("Game.app/OnDemandResources.plist")) {
                try check(try thin(project, ["Game.app", "out"]))
                try check(try thin(project, ["Game.app", "out", "--embed"]))
            }
        } else {
            TestSystem.setMode(project.path("Game.app/Tutorial"), 0o555)
            defer { TestSystem.setMode(project.path("Game.app/Tutorial"), 0o755) }
            let output = try thin(project, ["Game.app", "out"])
            TestSystem.setMode(project.path("Game.app/Tutorial"), 0o755)
            try check(output)
        }
        // Once the obstacle is gone, the same command works.
        #expect(try thin(project, ["Game.app", "out"]).status == 0)
    }

    /// What a killed thin leaves (its set-aside folder in the app's root) stops the next one, which would otherwise
    /// ship those files: exit 2 naming it, nothing changed.
    @Test func whatAKilledThinLeftStopsTheNext() throws {
        let project = try thinTests.builtGame()
        try project.file("Game.app/.odrpack-tmp-4242-0123456789abcdef0123/0", "a file thin had moved aside")
        let before = try AppBundleFixture.snapshot(project.path("Game.app"))
        let output = try thin(project, ["Game.app", "out"])
        #expect(output.status == 2 && output.stderr.contains("interrupted thin"), "\(output.stderr)")
        #expect(try AppBundleFixture.snapshot(project.path("Game.app")) == before)
    }

    /// A full disk at whichever step of thin --embed (a small tmpfs, as root: the packs, the plists, the set-aside
    /// folder): exit 2, the app byte for byte as it was, no temporary left in it; with room enough, it works.
    @Test(.enabled(if: SystemAbilities.canMountTmpfs, "needs root and tmpfs mounts"))
    func aFullDiskLeavesTheAppAsItWas() throws {
        let project = try thinTests.builtGame()
        let disk = project.path("Disk")
        try project.folder("Disk")
        try #require(Self.shell("mount -t tmpfs -o size=1m tmpfs '\(disk)'"), "mount was refused")
        defer { _ = Self.shell("umount '\(disk)'") }
        var outcomes: Set<Int32> = []
        for room in stride(from: 4, through: 260, by: 8) {
            try? FileManager.default.removeItem(atPath: disk + "/Game.app")
            try? FileManager.default.removeItem(atPath: disk + "/filler")
            try FileManager.default.copyItem(atPath: project.path("Game.app"), toPath: disk + "/Game.app")
            let free = try #require(
                try FileManager.default.attributesOfFileSystem(forPath: disk)[.systemFreeSize] as? Int)
            try project.file("Disk/filler", bytes: Data(count: max(0, free - room * 1024)))
            let before = try AppBundleFixture.snapshot(disk + "/Game.app")
            let output = try thin(project, ["Disk/Game.app", "out", "--embed"])
            outcomes.insert(output.status)
            if output.status != 0 {
                #expect(output.status == 2 && output.stderr.contains("No space left on device"), "\(output.stderr)")
                let after = try AppBundleFixture.snapshot(disk + "/Game.app")
                let changed = Set(after.keys).union(before.keys).filter { after[$0] != before[$0] }.sorted()
                #expect(changed == [], "\(room) KB free: \(output.stderr)")
            } else {
                #expect(FileManager.default.fileExists(atPath: disk + "/Game.app/AssetPackManifest.plist"))
            }
        }
        #expect(outcomes == [0, 2])
    }

    /// The same for a Background Assets thin, whose writes are small (the tags document and the Info.plist).
    @Test(.enabled(if: SystemAbilities.canMountTmpfs, "needs root and tmpfs mounts"))
    func aFullDiskLeavesABackgroundAssetsAppAsItWas() throws {
        let fixture = try BackgroundAssetsThinTests().thinnable(
            background: "background-assets: {app-group: group.com.example.bamboo}")
        let disk = fixture.project.path("Disk")
        try fixture.project.folder("Disk")
        try #require(Self.shell("mount -t tmpfs -o size=512k tmpfs '\(disk)'"), "mount was refused")
        defer { _ = Self.shell("umount '\(disk)'") }
        var outcomes: Set<Int32> = []
        for room in stride(from: 0, through: 24, by: 4) {
            try? FileManager.default.removeItem(atPath: disk + "/Game.app")
            try? FileManager.default.removeItem(atPath: disk + "/filler")
            try FileManager.default.copyItem(atPath: fixture.project.path("Game.app"), toPath: disk + "/Game.app")
            let free = try #require(
                try FileManager.default.attributesOfFileSystem(forPath: disk)[.systemFreeSize] as? Int)
            try fixture.project.file("Disk/filler", bytes: Data(count: max(0, free - room * 1024)))
            let before = try AppBundleFixture.snapshot(disk + "/Game.app")
            let output = try fixture.run(["thin", "Disk/Game.app", "out"])
            outcomes.insert(output.status)
            if output.status != 0 {
                #expect(output.status == 2, "\(output.stderr)")
                #expect(try AppBundleFixture.snapshot(disk + "/Game.app") == before, "\(room) KB free")
            }
        }
        #expect(outcomes == [0, 2])
    }

    static func shell(_ command: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// The issue's own case: a Background Assets thin whose Info.plist cannot be replaced removed the packed files
    /// and set no key. Now nothing changes.
    @Test(.enabled(if: SystemAbilities.canMakeImmutable, "needs root and chattr"))
    func anImmutableInfoPlistChangesNothing() throws {
        let fixture = try BackgroundAssetsThinTests().thinnable(
            background: "background-assets: {app-group: group.com.example.bamboo}")
        let before = try AppBundleFixture.snapshot(fixture.project.path("Game.app"))
        try AppBundleFixture.withImmutable(fixture.project.path("Game.app/Info.plist")) {
            let output = try fixture.run(["thin", "Game.app", "out"])
            #expect(output.status == 2, "\(output.stderr)")
            #expect(try AppBundleFixture.snapshot(fixture.project.path("Game.app")) == before)
        }
        #expect(try fixture.run(["thin", "Game.app", "out"]).status == 0)
    }

    @Test func anAppForAnotherBundleIdIsAnError() throws {
        let project = try thinTests.builtGame()
        try project.file("Game.app/Info.plist", bytes: AppBundleFixture.infoPlist(bundleId: "com.example.other"))
        let before = try AppBundleFixture.snapshot(project.path("Game.app"))
        let output = try thin(project, ["Game.app", "out", "--json"])
        #expect(output.status == 1)
        let found = try diagnostics(output)
        #expect(found.count == 1)
        #expect(found.first?["code"] as? String == "app-bundle-id-mismatch")
        #expect(found.first?["severity"] as? String == "error")
        #expect(found.first?["subject"] as? String == "Info.plist")
        #expect((found.first?["message"] as? String)?.contains("'com.example.other'") == true)
        #expect((found.first?["message"] as? String)?.contains("'com.example.build'") == true)
        #expect(try AppBundleFixture.snapshot(project.path("Game.app")) == before)
        // Binary plists, as Xcode writes them, are read the same way.
        try project.file(
            "Game.app/Info.plist", bytes: AppBundleFixture.infoPlist(bundleId: "com.example.build", format: .binary))
        #expect(try thin(project, ["Game.app", "out"]).status == 0)
    }

    /// xcodebuild compiles .strings and .plist files and re-compresses PNGs: such a copy at a pack destination is
    /// removed like the others, with one warning giving the count and one path; any other difference stays an error.
    @Test func convertedFilesAreRemovedWithOneWarning() throws {
        let project = try thinTests.builtGame()
        try project.file("Game.app/Shared/paddle.png", "re-compressed by the app's build")
        try project.file("Game.app/Level2/Deep/texture.png", "re-compressed too")
        let output = try thin(project, ["Game.app", "out", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let found = try diagnostics(output)
        #expect(found.map { $0["code"] as? String } == ["app-file-converted"])
        #expect(found.first?["severity"] as? String == "warning")
        #expect(found.first?["subject"] as? String == "Level2/Deep/texture.png")
        #expect((found.first?["message"] as? String)?.hasPrefix("2 files") == true)
        let document = try output.json()
        #expect((document["removed"] as? [String])?.contains("Shared/paddle.png") == true)
        #expect((document["removed"] as? [String])?.count == 6)
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.app/Shared/paddle.png")))
        let after = try AppBundleFixture.snapshot(project.path("Game.app"))
        #expect(try thin(project, ["Game.app", "out"]).status == 0)
        #expect(try AppBundleFixture.snapshot(project.path("Game.app")) == after)
    }

    /// A pack destination that is the app's own Info.plist (a macOS app's Contents/Info.plist) is never removed as a
    /// converted copy: its other bytes are app-file-differs.
    @Test func theAppsInfoPlistIsNeverTakenForAConvertedCopy() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.mac
            resources-root: R
            resources:
              - {path: Contents, tags: [mac]}
            """)
        try project.file("R/Contents/Info.plist", "a resource named so")
        #expect(try CommandRunner.run(["build", "-o", "out"], in: project.root).status == 0)
        try project.file("Mac.app/Contents/Info.plist", bytes: AppBundleFixture.infoPlist(bundleId: "com.example.mac"))
        let output = try thin(project, ["Mac.app", "out", "--json"])
        #expect(output.status == 1)
        #expect(try diagnostics(output).map { $0["code"] as? String } == ["app-file-differs"])
        #expect(FileManager.default.fileExists(atPath: project.path("Mac.app/Contents/Info.plist")))
    }

    /// A real project's executable is named OnDemandResources: thin works as for any app and keeps it; only --embed,
    /// which needs that name for its folder, is exit 2, in any letter case.
    @Test(arguments: ["OnDemandResources", "ondemandresources"])
    func anExecutableNamedOnDemandResources(name: String) throws {
        let project = try thinTests.builtGame()
        try project.file("Game.app/" + name, "executable")
        let before = try AppBundleFixture.snapshot(project.path("Game.app"))
        let embed = try thin(project, ["Game.app", "out", "--embed"])
        #expect(embed.status == 2 && embed.stderr.contains("--embed"), "\(embed.stderr)")
        #expect(try AppBundleFixture.snapshot(project.path("Game.app")) == before)
        let output = try thin(project, ["Game.app", "out", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect((try output.json()["removed"] as? [String])?.count == 6)
        #expect(try String(contentsOfFile: project.path("Game.app/" + name), encoding: .utf8) == "executable")
    }

    /// Packs none of whose files the app holds, while others matched, get one warning each.
    @Test func aPackMissingFromTheAppIsNamed() throws {
        let project = try thinTests.builtGame()
        try FileManager.default.removeItem(atPath: project.path("Game.app/Level2"))
        let output = try thin(project, ["Game.app", "out", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let found = try diagnostics(output)
        #expect(found.map { $0["code"] as? String } == ["pack-files-not-in-app"])
        #expect(found.first?["subject"] as? String == "Level2/Deep/texture.png")
        #expect((found.first?["message"] as? String)?.contains("pack 'level2'") == true)
        #expect((try output.json()["removed"] as? [String])?.count == 4)
    }

    /// When every missing file is an asset-catalog item, the app compiled them into its Assets.car.
    @Test func catalogItemsMissingFromTheAppPointAtAssetsCar() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.art
            resources-root: R
            resources:
              - {path: Art.xcassets, tags: [art]}
            """)
        try project.file("R/Art.xcassets/hero.imageset/hero.png", "png")
        try project.file("R/Art.xcassets/hero.imageset/Contents.json", "{}")
        #expect(try CommandRunner.run(["build", "-o", "out"], in: project.root).status == 0)
        try project.file("Game.app/Info.plist", bytes: AppBundleFixture.infoPlist(bundleId: "com.example.art"))
        try project.file("Game.app/Assets.car", "compiled")
        let output = try thin(project, ["Game.app", "out", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let found = try diagnostics(output)
        #expect(found.map { $0["code"] as? String } == ["pack-files-not-in-app"])
        #expect((found.first?["message"] as? String)?.contains("Assets.car") == true)
    }

    /// --dry-run reports what thin would remove, install and embed, and changes nothing.
    @Test func aDryRunChangesNothing() throws {
        let project = try thinTests.builtGame()
        let before = try AppBundleFixture.snapshot(project.path("Game.app"))
        let dry = try thin(project, ["Game.app", "out", "--dry-run", "--embed", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try AppBundleFixture.snapshot(project.path("Game.app")) == before)
        let document = try dry.json()
        #expect(document["dryRun"] as? Bool == true)
        #expect((document["embedded"] as? [String])?.count == 4)
        #expect(document["installed"] as? [String] == ["OnDemandResources.plist", "AssetPackManifest.plist"])
        let text = try thin(project, ["Game.app", "out", "--dry-run"])
        #expect(text.status == 0 && text.stdout.contains("remove  Level1/scene.json"), "\(text.stdout)")
        #expect(text.stdout.contains("install OnDemandResources.plist"))
        #expect(try AppBundleFixture.snapshot(project.path("Game.app")) == before)
        let real = try thin(project, ["Game.app", "out", "--embed", "--json"])
        #expect(try real.json()["removed"] as? [String] == document["removed"] as? [String])
        #expect(try real.json()["removedBytes"] as? Int == document["removedBytes"] as? Int)
        #expect(try real.json()["dryRun"] as? Bool == false)
    }
}
