import Foundation
import Testing

/// docs/background-assets.md for shipping Background Assets: a crash-safe commit, packs placed with `into`, versions that never go
/// backwards, immutable self-hosted addresses, `--published`, `--jobs` packagers at once, and `diff`'s retired packs.
@Suite struct BackgroundAssetsReleaseTests {
    func packs(_ fixture: BackgroundAssetsFixture, _ folder: String = "out") throws -> [[String: Any]] {
        try fixture.json(folder + "/odrpack-manifest.json")["packs"] as? [[String: Any]] ?? []
    }

    func versions(_ fixture: BackgroundAssetsFixture, _ folder: String = "out") throws -> [String: Int] {
        Dictionary(
            uniqueKeysWithValues: try packs(fixture, folder).map {
                ($0["assetPackId"] as! String, $0["version"] as! Int)
            })
    }

    /// A build killed (SIGKILL) while its packager runs leaves the folder as the last build left it: `verify` passes at
    /// once, and the next build equals a clean one.
    @Test func aBuildKilledWhileItsPackagerRunsLeavesAVerifiableFolder() throws {
        let fixture = try BackgroundAssetsFixture()
        #expect(try fixture.build().status == 0)
        let before = try fixture.data("out/odrpack-manifest.json")
        let level1 = "out/BackgroundAssets/\(expectedAssetPackID(["level1"])).json"
        let packageManifest = try fixture.data(level1)
        try fixture.project.file("R/Level1/scene.json", "changed")
        try fixture.project.file("R/Level1/new.json", "new")
        fixture.clearCalls()

        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = [
            "build", "--format", "background-assets", "-o", "out", "--ba-package",
            BackgroundAssetsFixture.packagerCommand,
        ]
        process.currentDirectoryURL = fixture.project.root
        var environment = ProcessInfo.processInfo.environment
        environment["BA_STANDIN_LOG"] = fixture.log.path
        environment["BA_STANDIN_SLEEP"] = "10"
        environment["ODRPACK_CACHE_DIR"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("odrpack-test-cache").path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while (try fixture.calls()).isEmpty && Date() < deadline { usleep(20_000) }
        #expect(!(try fixture.calls()).isEmpty, "the packager never started")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // The stand-in sleeps on; the folder is what it was.
        #expect(try fixture.run(["verify", "out"]).status == 0)
        #expect(try fixture.data("out/odrpack-manifest.json") == before)
        #expect(try fixture.data(level1) == packageManifest)

        #expect(try fixture.build().status == 0)
        #expect(try fixture.build(output: "clean").status == 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.project.path("clean/BackgroundAssets"))
        where name.hasSuffix(".json") {
            #expect(
                try fixture.data("out/BackgroundAssets/" + name) == fixture.data("clean/BackgroundAssets/" + name),
                "\(name)")
        }
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: fixture.project.path("out"))).contains {
                $0.hasPrefix(".odrpack-tmp-")
            })
        #expect(try fixture.run(["verify", "out"]).status == 0)
    }

    /// `into` places files for the packager too: it runs where every file of the pack is at its destination.
    @Test func thePackagerRunsWhereFilesAreAtTheirDestinations() throws {
        let fixture = try BackgroundAssetsFixture(manifest: "")
        try fixture.project.manifest(
            try fixture.text("odrpack.yml").replacingOccurrences(
                of: "  - {path: Level1, tags: [level1]}",
                with:
                    "  - {path: Level1, tags: [level1], into: Levels}\n  - {path: Level2/scene.json, tags: [level 2], into: .}"
            ))
        let output = try fixture.build()
        #expect(output.status == 0, "\(output.stderr)")
        let calls = try fixture.calls()
        let level1 = try #require(
            calls.first { $0.manifestText.contains("\"assetPackID\": \"\(expectedAssetPackID(["level1"]))\"") })
        #expect(level1.cwd != fixture.resourcesRoot)
        #expect(level1.manifestText.contains("\"file\": \"Levels/Level1/music.caf\""))
        // Packs whose files stay at their source paths run from resources-root.
        let store = try #require(
            calls.first { $0.manifestText.contains("\"assetPackID\": \"\(expectedAssetPackID(["shared_ui"]))\"") })
        #expect(store.cwd == fixture.resourcesRoot)
        let tags = try fixture.json("out/BackgroundAssets/AssetPackTags.json")
        let paths = (tags["packs"] as? [String: [String]])?[expectedAssetPackID(["level 2"])]
        #expect(paths == ["Level2/Deep/texture.png", "scene.json"])
        #expect(try fixture.run(["verify", "out"]).status == 0)
        // The staging folder is gone with the build's temporaries.
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: fixture.project.path("out"))).contains {
                $0.hasPrefix(".odrpack-tmp-")
            })
    }

    @Test func anUnreadablePreviousManifestNeedsResetVersions() throws {
        let fixture = try BackgroundAssetsFixture()
        #expect(try fixture.build().status == 0)
        try fixture.project.file("R/Level1/scene.json", "changed")
        #expect(try fixture.build().status == 0)
        #expect(try versions(fixture)[expectedAssetPackID(["level1"])] == 1)
        try fixture.project.file("out/odrpack-manifest.json", "{\"schemaVersion\": 1, \"packs\": [")
        let refused = try fixture.build()
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--reset-versions"))
        let reset = try fixture.build(["--reset-versions"])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(try versions(fixture).values.allSatisfy { $0 == 0 })
        #expect(try fixture.run(["verify", "out"]).status == 0)
    }

    /// A version that cannot grow is exit 2 with a message, never a trap.
    @Test func aVersionAtInt64MaxCannotGrow() throws {
        let fixture = try BackgroundAssetsFixture()
        #expect(try fixture.build().status == 0)
        let text = try fixture.text("out/odrpack-manifest.json")
        try fixture.project.file(
            "out/odrpack-manifest.json",
            text.replacingOccurrences(of: "\"version\": 0", with: "\"version\": 9223372036854775807"))
        try fixture.project.file("R/Level1/scene.json", "changed")
        let output = try fixture.build()
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.stderr.contains("9223372036854775807"))
    }

    /// The live download manifest is the source of versions: a CI machine that starts empty numbers them right, and
    /// site/ holds only what is not live yet.
    @Test func publishedDecidesVersionsAndWhatToUpload() throws {
        let background = "background-assets: {hosting: self}"
        let fixture = try BackgroundAssetsFixture(background: background)
        let prefix = ["--url-prefix", "https://cdn.example.com/packs"]
        #expect(try fixture.build(prefix, output: "first").status == 0)
        let live = "first/BackgroundAssets/site/download-manifest.json"
        var published = try fixture.json(live)
        // One pack the server has that this build no longer makes.
        var entries = published["assetPacks"] as! [[String: Any]]
        entries.append([
            "id": "retired-0badf00d", "url": "https://cdn.example.com/packs/retired-0badf00d-0123456789abcdef",
            "version": 4,
            "downloadSize": 9, "downloadPolicy": ["onDemand": [String: Any]()], "host": ["thirdParty": [String: Any]()],
        ])
        // The server's level1 is at version 6; its bytes there are 1234 long.
        let level1 = expectedAssetPackID(["level1"])
        let level2 = expectedAssetPackID(["level 2"])
        entries = entries.map { entry in
            var entry = entry
            if entry["id"] as? String == level1 {
                entry["version"] = 6
                entry["downloadSize"] = 1234
            }
            if entry["id"] as? String == level2 { entry["version"] = 2 }
            return entry
        }
        published["assetPacks"] = entries
        try fixture.project.file("live.json", bytes: try JSONSerialization.data(withJSONObject: published))
        try fixture.project.file("R/Level2/scene.json", "changed")

        let output = try fixture.build(prefix + ["--published", "live.json"], output: "ci")
        #expect(output.status == 0, "\(output.stderr)")
        let diagnostics = try output.json()["diagnostics"] as? [[String: Any]] ?? []
        #expect(
            diagnostics.map { "\($0["severity"]!) \($0["code"]!) \($0["subject"]!)" } == [
                "warning ba-pack-dropped retired-0badf00d"
            ])
        let numbers = try versions(fixture, "ci")
        #expect(numbers[level1] == 6)
        #expect(numbers[level2] == 3)
        #expect(numbers[expectedAssetPackID(["shared_ui"])] == 0)
        // site/ holds the packs not live at their address: level 2 changed (a new address), the others are live.
        let site = try FileManager.default.contentsOfDirectory(atPath: fixture.project.path("ci/BackgroundAssets/site"))
            .sorted()
        #expect(site.count == 2)
        #expect(site.contains("download-manifest.json"))
        #expect(site.contains { $0.hasPrefix(level2 + "-") })
        let document = try fixture.json("ci/BackgroundAssets/site/download-manifest.json")
        let level1Entry = try #require(
            (document["assetPacks"] as? [[String: Any]])?.first { $0["id"] as? String == level1 })
        #expect(level1Entry["downloadSize"] as? Int == 1234)
        #expect(try fixture.run(["verify", "ci"]).status == 0)
        // thin counts what devices download: the live sizes the download manifest lists.
        try fixture.project.file(
            "Game.app/Info.plist",
            bytes: try PropertyListSerialization.data(
                fromPropertyList: ["CFBundleIdentifier": "com.example.bamboo"], format: .xml, options: 0))
        let thin = try fixture.run(["thin", "Game.app", "ci", "--app-group", "group.x"])
        #expect(thin.status == 0, "\(thin.stderr)")
        let listed = (document["assetPacks"] as? [[String: Any]] ?? [])
        let essential = listed.filter { ($0["downloadPolicy"] as? [String: Any])?["essential"] != nil }
            .reduce(0) { $0 + ($1["downloadSize"] as? Int ?? 0) }
        let info =
            try PropertyListSerialization.propertyList(from: try fixture.data("Game.app/Info.plist"), format: nil)
            as? [String: Any]
        let restrictions = info?["BAInitialDownloadRestrictions"] as? [String: Any]
        #expect(restrictions?["BAEssentialDownloadAllowance"] as? Int == essential)
        #expect(essential > 1234)
        // An unreadable --published file is exit 2.
        try fixture.project.file("broken.json", "[1, 2")
        #expect(try fixture.build(prefix + ["--published", "broken.json"], output: "ci").status == 2)
    }

    /// Packagers wait on I/O: `--jobs 4` runs four at once even on fewer cores (docs/commands.md).
    @Test func jobsRunThatManyPackagersAtOnce() throws {
        let fixture = try BackgroundAssetsFixture()
        #expect(try fixture.build(["--jobs", "4"], environment: ["BA_STANDIN_SLEEP": "1"]).status == 0)
        let calls = try fixture.calls()
        #expect(calls.count == 4)
        let overlapping = calls.filter { call in calls.allSatisfy { $0.start < call.end && call.start < $0.end } }
        #expect(overlapping.count == 4, "\(calls.map { ($0.start, $0.end) })")
    }

    @Test func diffNamesTheRetiredPacksAndWhatThatMeans() throws {
        for hosting in ["apple", "self"] {
            let fixture = try BackgroundAssetsFixture(background: "background-assets: {hosting: \(hosting)}")
            let prefix = hosting == "self" ? ["--url-prefix", "https://cdn.example.com/p"] : []
            #expect(try fixture.build(prefix, output: "old").status == 0)
            try fixture.project.manifest(
                try fixture.text("odrpack.yml").replacingOccurrences(
                    of: "  - {path: Store, tags: [shared_ui]}\n", with: ""
                )
                .replacingOccurrences(of: ", shared_ui]", with: "]"))
            #expect(try fixture.build(prefix, output: "new").status == 0)
            let json = try fixture.run(["diff", "old", "new", "--json"]).json()
            #expect(json["retired"] as? [String] == [expectedAssetPackID(["shared_ui"])])
            #expect(
                (json["summary"] as? [String: Any])?["retired"] as? [String] == [expectedAssetPackID(["shared_ui"])])
            let text = try fixture.run(["diff", "old", "new"]).stdout
            #expect(text.contains(expectedAssetPackID(["shared_ui"])))
            #expect(text.contains(hosting == "self" ? "devices delete" : "100-pack quota"))
        }
    }
}
