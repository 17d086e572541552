import Foundation
import Testing

/// docs/background-assets.md for `build`, `verify` and `diff --format background-assets`, through the binary and the stand-in packager.
@Suite struct BackgroundAssetsBuildTests {
    /// Pack id (docs/manifest.md#pack-identity) -> manifest pack, from a build's odrpack-manifest.json.
    func packs(_ fixture: BackgroundAssetsFixture, _ folder: String = "out") throws -> [[String: Any]] {
        try fixture.json(folder + "/odrpack-manifest.json")["packs"] as? [[String: Any]] ?? []
    }

    @Test func buildWritesTheManifestsArchivesAndTags() throws {
        let fixture = try BackgroundAssetsFixture()
        let output = try fixture.build()
        #expect(output.status == 0, "\(output.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.project.path("out")).sorted()
        #expect(names == [".odrpack.lock", "BackgroundAssets", "odrpack-manifest.json"])
        let manifest = try fixture.json("out/odrpack-manifest.json")
        #expect(manifest["format"] as? String == "background-assets")
        let settings = try #require(manifest["backgroundAssets"] as? [String: Any])
        #expect(
            settings["hosting"] as? String == "apple" && settings["appGroup"] is NSNull
                && settings["urlPrefix"] is NSNull)
        #expect(settings["events"] as? [String] == ["firstInstallation", "subsequentUpdate"])

        // <id>.json: exactly these keys in this order, 2-space indented, one newline at the end.
        let id = expectedAssetPackID(["level1", "level 2"])
        #expect(
            try fixture.text("out/BackgroundAssets/\(id).json") == """
                {
                  "assetPackID": "\(id)",
                  "downloadPolicy": {
                    "essential": {
                      "installationEventTypes": [
                        "firstInstallation",
                        "subsequentUpdate"
                      ]
                    }
                  },
                  "fileSelectors": [
                    {
                      "file": "Shared/paddle.png"
                    }
                  ],
                  "platforms": [
                    "iOS"
                  ]
                }

                """)
        let store = expectedAssetPackID(["shared_ui"])
        #expect(try fixture.text("out/BackgroundAssets/\(store).json").contains("\"prefetch\": {"))

        // One packager call per pack: from resources-root, absolute paths, the manifest it names, every file there.
        let calls = try fixture.calls()
        #expect(calls.count == 4)
        for call in calls {
            #expect(call.cwd == fixture.resourcesRoot)
            // The pack's manifest and output in a hidden temporary folder of the build folder, never in
            // BackgroundAssets/ itself: a killed build changes no file the previous manifest names.
            let name = (call.manifest as NSString).lastPathComponent
            let temporary = (call.manifest as NSString).deletingLastPathComponent
            #expect((temporary as NSString).deletingLastPathComponent == fixture.project.path("out"))
            #expect((temporary as NSString).lastPathComponent.hasPrefix(".odrpack-tmp-"))
            #expect(name.hasSuffix(".json"))
            #expect(call.output.hasPrefix(temporary + "/") && call.output.hasSuffix(".aar"))
            #expect(try fixture.text("out/BackgroundAssets/\(name)") == call.manifestText)
        }
        #expect(
            Set(calls.map { ($0.manifest as NSString).lastPathComponent })
                == Set(try packs(fixture).map { "\($0["assetPackId"]!).json" }))

        for pack in try packs(fixture) {
            let id = try #require(pack["assetPackId"] as? String)
            let archive = try fixture.data("out/BackgroundAssets/\(id).aar")
            #expect(pack["file"] as? String == "BackgroundAssets/\(id).aar")
            #expect(pack["archiveSize"] as? Int == archive.count)
            #expect(pack["archiveSha256"] as? String == sha256Hex(archive))
            #expect(pack["version"] as? Int == 0)
            let files = try #require(pack["files"] as? [[String: Any]])
            for file in files {
                let bytes = try fixture.data("R/" + (file["path"] as! String))
                #expect(file["sha256"] as? String == sha256Hex(bytes) && file["size"] as? Int == bytes.count)
            }
        }

        // AssetPackTags.json: keys sorted, 2-space indented; no localized pack, every pack for the one platform, iOS
        // (docs/background-assets.md#languages, #platforms).
        let level1 = expectedAssetPackID(["level1"])
        let level2 = expectedAssetPackID(["level 2"])
        let ids = [id, level1, level2, store].sorted()
        let paths: [String: [String]] = [
            id: ["Shared/paddle.png"], level1: ["Level1/music.caf", "Level1/scene.json"],
            level2: ["Level2/Deep/texture.png", "Level2/scene.json"], store: ["Store/ünïcode skin.json"],
        ]
        func list(_ items: [String], _ indent: String) -> String {
            "[\n" + items.map { "\(indent)  \"\($0)\"" }.joined(separator: ",\n") + "\n\(indent)]"
        }
        let expectedTags =
            "{\n  \"bundleId\": \"com.example.bamboo\",\n  \"localizedTags\": {},\n  \"packs\": {\n"
            + ids.map { "    \"\($0)\": \(list(paths[$0]!, "    "))" }.joined(separator: ",\n")
            + "\n  },\n  \"platforms\": {\n"
            + ids.map { "    \"\($0)\": \(list(["iOS"], "    "))" }.joined(separator: ",\n")
            + "\n  },\n  \"tags\": {\n"
            + [("level 2", [id, level2].sorted()), ("level1", [id, level1].sorted()), ("shared_ui", [store])]
            .map { "    \"\($0.0)\": \(list($0.1, "    "))" }.joined(separator: ",\n")
            + "\n  }\n}\n"
        #expect(try fixture.text("out/BackgroundAssets/AssetPackTags.json") == expectedTags)
        #expect(try fixture.run(["verify", "out"]).status == 0)
    }

    @Test func onlyChangedPacksAreMadeAgainAndTheirVersionsGoUp() throws {
        let fixture = try BackgroundAssetsFixture()
        #expect(try fixture.build().status == 0)
        let archives = try FileManager.default.contentsOfDirectory(atPath: fixture.project.path("out/BackgroundAssets"))
            .filter { $0.hasSuffix(".aar") }
        let before = try Dictionary(
            uniqueKeysWithValues: archives.map { ($0, try fixture.data("out/BackgroundAssets/" + $0)) })
        fixture.clearCalls()

        // Nothing changed: no packager call, every archive byte for byte.
        let again = try fixture.build()
        #expect(again.status == 0)
        #expect(try fixture.calls().isEmpty)
        #expect((try again.json()["build"] as? [String: Any])?["written"] as? [String] == [])
        for (name, bytes) in before { #expect(try fixture.data("out/BackgroundAssets/" + name) == bytes) }

        // A touched file with the same bytes: read again, not packaged again.
        try fixture.project.file("R/Level1/music.caf", "caf-one")
        #expect(try fixture.build().status == 0)
        #expect(try fixture.calls().isEmpty)

        // One file edited: its pack alone, version 1; twice edited, version 2; the others stay 0.
        let level1 = expectedAssetPackID(["level1"])
        for version in 1...2 {
            try fixture.project.file("R/Level1/scene.json", "{\"level\": 1, \"edit\": \(version)}")
            #expect(try fixture.build().status == 0)
            #expect(try fixture.calls().map { ($0.manifest as NSString).lastPathComponent } == ["\(level1).json"])
            fixture.clearCalls()
            for pack in try packs(fixture) {
                #expect(pack["version"] as? Int == (pack["assetPackId"] as? String == level1 ? version : 0))
            }
        }
        // The packager command is part of what made an archive: a new one makes every pack again, versions unchanged.
        #expect(try fixture.build(["--ba-package", BackgroundAssetsFixture.packagerCommand + " "]).status == 0)
        #expect(try fixture.calls().count == 4)
        #expect(try packs(fixture).map { $0["version"] as? Int ?? -1 }.sorted() == [0, 0, 0, 2])

        // A removed pack's files go; a new tag set is version 0.
        try FileManager.default.removeItem(atPath: fixture.project.path("R/Store"))
        try fixture.project.manifest(
            try fixture.text("odrpack.yml").replacingOccurrences(
                of: "{path: Store, tags: [shared_ui]}", with: "{path: UI, tags: [ui]}"
            )
            .replacingOccurrences(of: ", shared_ui]", with: "]"))
        let removed = try fixture.build()
        #expect(removed.status == 0)
        let store = expectedAssetPackID(["shared_ui"])
        let ui = expectedAssetPackID(["ui"])
        #expect((try removed.json()["build"] as? [String: Any])?["removed"] as? [String] == ["\(store).aar"])
        #expect(!FileManager.default.fileExists(atPath: fixture.project.path("out/BackgroundAssets/\(store).aar")))
        #expect(!FileManager.default.fileExists(atPath: fixture.project.path("out/BackgroundAssets/\(store).json")))
        #expect(try packs(fixture).first { $0["assetPackId"] as? String == ui }?["version"] as? Int == 0)
        #expect(try fixture.run(["verify", "out"]).status == 0)
    }

    /// A CI machine starts with an empty folder: the last release's manifest alone carries the versions on.
    @Test func versionsCarryOnFromARestoredManifest() throws {
        let fixture = try BackgroundAssetsFixture()
        #expect(try fixture.build(output: "release").status == 0)
        try fixture.project.file("R/Level2/scene.json", "{\"level\": 2, \"fixed\": true}")
        try fixture.project.folder("ci")
        try FileManager.default.copyItem(
            atPath: fixture.project.path("release/odrpack-manifest.json"),
            toPath: fixture.project.path("ci/odrpack-manifest.json"))
        let output = try fixture.build(["--no-cache"], output: "ci")
        #expect(output.status == 0)
        let level2 = expectedAssetPackID(["level 2"])
        for pack in try packs(fixture, "ci") {
            #expect(pack["version"] as? Int == (pack["assetPackId"] as? String == level2 ? 1 : 0))
        }
        #expect(try fixture.run(["verify", "ci"]).status == 0)
    }

    @Test func aPackagerThatFailsLeavesThePreviousOutput() throws {
        let fixture = try BackgroundAssetsFixture()
        #expect(try fixture.build().status == 0)
        let manifest = try fixture.data("out/odrpack-manifest.json")
        let level1 = "out/BackgroundAssets/\(expectedAssetPackID(["level1"])).json"
        let packageManifest = try fixture.data(level1)
        // A changed file and a new one: the pack's ba-package manifest changes too, and must be put back.
        try fixture.project.file("R/Level1/scene.json", "changed")
        try fixture.project.file("R/Level1/new.json", "new")
        for environment in [["BA_STANDIN_FAIL": "1"], ["BA_STANDIN_NO_OUTPUT": "1"]] {
            let output = try fixture.build(environment: environment)
            #expect(output.status == 2, "\(environment)")
            #expect(output.stderr.contains("packager"), "\(output.stderr)")
            #expect(try fixture.data("out/odrpack-manifest.json") == manifest)
            #expect(try fixture.data(level1) == packageManifest)
            #expect(try fixture.run(["verify", "out"]).status == 0)
            for folder in ["out", "out/BackgroundAssets"] {
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.project.path(folder))
                    .filter { $0.hasPrefix(".odrpack-tmp-") }
                #expect(leftovers.isEmpty)
            }
        }
    }

    @Test func thePackagerComesFromTheCommandLineOrPath() throws {
        let fixture = try BackgroundAssetsFixture()
        // Neither ba-package nor xcrun: exit 2 before anything is written, saying what to do.
        let none = try fixture.run(
            ["build", "--format", "background-assets", "-o", "out"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("--ba-package") && none.stderr.contains("xcrun"))
        #expect(!FileManager.default.fileExists(atPath: fixture.project.path("out")))
        // ba-package on PATH is run as `ba-package {manifest} -o {output}`; xcrun as `xcrun ba-package ...`.
        let bin = fixture.project.path("bin")
        try fixture.project.folder("bin")
        // Every Mac has xcrun; only Xcode 26 and later has ba-package: an xcrun that cannot find it is no packager.
        try fixture.project.file("bin/xcrun", "#!/bin/sh\nexit 72\n")
        TestSystem.setMode(fixture.project.path("bin/xcrun"), 0o755)
        let oldXcode = try fixture.run(
            ["build", "--format", "background-assets", "-o", "out"], environment: ["PATH": bin + ":/usr/bin:/bin"])
        #expect(oldXcode.status == 2)
        #expect(oldXcode.stderr.contains("xcrun --find ba-package"))
        #expect(!FileManager.default.fileExists(atPath: fixture.project.path("out")))
        try fixture.project.file(
            "bin/xcrun",
            """
            #!/bin/sh
            if [ "$1" = --find ] && [ "$2" = ba-package ]; then echo /Applications/Xcode.app/usr/bin/ba-package; exit 0; fi
            [ "$1" = ba-package ] || exit 9
            shift
            exec '\(BackgroundAssetsFixture.standIn)' "$@"

            """)
        let viaXcrun = try fixture.run(
            ["build", "--format", "background-assets", "-o", "out"], environment: ["PATH": bin + ":/usr/bin:/bin"])
        #expect(viaXcrun.status == 0, "\(viaXcrun.stderr)")
        #expect(try fixture.calls().count == 4)
        // The release record: the command as run, and the first line of its --version.
        let recorded = try #require(
            (try fixture.json("out/odrpack-manifest.json")["backgroundAssets"] as? [String: Any])?["packager"]
                as? [String: Any])
        #expect(recorded["command"] as? String == "xcrun ba-package {manifest} -o {output}")
        #expect(recorded["version"] as? String == "ba-package-standin 1.0 (test stand-in)")
        fixture.clearCalls()
        try FileManager.default.createSymbolicLink(
            atPath: bin + "/ba-package", withDestinationPath: BackgroundAssetsFixture.standIn)
        try fixture.project.file("bin/xcrun", "#!/bin/sh\nexit 9\n")
        let direct = try fixture.run(
            ["build", "--format", "background-assets", "-o", "out2"], environment: ["PATH": bin + ":/usr/bin:/bin"])
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(try fixture.calls().count == 4)
        let direct2 = try #require(
            (try fixture.json("out2/odrpack-manifest.json")["backgroundAssets"] as? [String: Any])?["packager"]
                as? [String: Any])
        #expect(direct2["command"] as? String == "ba-package {manifest} -o {output}")
        // A packager whose --version fails is no packager either.
        try FileManager.default.removeItem(atPath: bin + "/ba-package")
        try fixture.project.file("bin/ba-package", "#!/bin/sh\nexit 3\n")
        TestSystem.setMode(fixture.project.path("bin/ba-package"), 0o755)
        let broken = try fixture.run(
            ["build", "--format", "background-assets", "-o", "out3"], environment: ["PATH": bin + ":/usr/bin:/bin"])
        #expect(broken.status == 2 && broken.stderr.contains("--version"))
        #expect(!FileManager.default.fileExists(atPath: fixture.project.path("out3")))
    }

    @Test func optionsThatDoNotApplyAreABadCommandLine() throws {
        let fixture = try BackgroundAssetsFixture()
        for extra in [
            ["--layout", "folder"], ["--compression", "store"], ["--level", "1"], ["--sign-command", "true"],
        ] {
            let output = try fixture.build(extra)
            #expect(output.status == 64, "\(extra)")
            #expect(output.stderr.contains(extra[0]))
        }
        #expect(try fixture.run(["build", "-o", "out", "--ba-package", "x"]).status == 64)
        #expect(!FileManager.default.fileExists(atPath: fixture.project.path("out")))
        let selfHosted = try BackgroundAssetsFixture(background: "background-assets: {hosting: self}")
        // https only: the system fetches Background Assets only over HTTPS.
        for extra in [
            [], ["--url-prefix", "cdn.example.com/packs"], ["--url-prefix", "file:///srv/packs"],
            ["--url-prefix", "http://cdn.example.com/packs"],
            ["--url-prefix", "https:///packs"],
        ] {
            let output = try selfHosted.build(extra)
            #expect(output.status == 64, "\(extra)")
            #expect(output.stderr.contains("--url-prefix"))
            #expect(!FileManager.default.fileExists(atPath: selfHosted.project.path("out")))
        }
        // --url-prefix and --published do not apply to Apple hosting; --published and --reset-versions not to ODR.
        #expect(try fixture.build(["--url-prefix", "https://cdn.example.com/x"]).status == 64)
        #expect(try fixture.build(["--published", "live.json"]).status == 64)
        #expect(try fixture.run(["build", "-o", "out", "--reset-versions"]).status == 64)
        #expect(try fixture.run(["build", "-o", "out", "--published", "x.json"]).status == 64)
        #expect(!FileManager.default.fileExists(atPath: fixture.project.path("out")))
    }

    @Test func selfHostingWritesTheSite() throws {
        let fixture = try BackgroundAssetsFixture(background: "background-assets: {hosting: self}")
        let output = try fixture.build(["--url-prefix", "https://cdn.example.com/packs/"])
        #expect(output.status == 0, "\(output.stderr)")
        let packs = try packs(fixture).sorted { ($0["assetPackId"] as! String) < ($1["assetPackId"] as! String) }
        let site = try FileManager.default.contentsOfDirectory(
            atPath: fixture.project.path("out/BackgroundAssets/site")
        ).sorted()
        // Immutable names: <id>-<first 16 hex digits of the contentHash>.
        func siteName(_ pack: [String: Any]) -> String {
            (pack["assetPackId"] as! String) + "-" + (pack["contentHash"] as! String).prefix(16)
        }
        #expect(site == (packs.map(siteName) + ["download-manifest.json"]).sorted())
        for pack in packs {
            let id = pack["assetPackId"] as! String
            #expect(
                try fixture.data("out/BackgroundAssets/site/\(siteName(pack))")
                    == fixture.data("out/BackgroundAssets/\(id).aar"))
        }
        let document = try fixture.json("out/BackgroundAssets/site/download-manifest.json")
        #expect(document.keys.sorted() == ["assetPacks"])
        let entries = try #require(document["assetPacks"] as? [[String: Any]])
        #expect(entries.map { $0["id"] as! String } == packs.map { $0["assetPackId"] as! String })
        for (entry, pack) in zip(entries, packs) {
            #expect(entry["url"] as? String == "https://cdn.example.com/packs/\(siteName(pack))")
            #expect(entry["version"] as? Int == 0)
            #expect(entry["downloadSize"] as? Int == pack["archiveSize"] as? Int)
            #expect(
                NSDictionary(dictionary: entry["downloadPolicy"] as! [String: Any]).isEqual(
                    to: pack["downloadPolicy"] as! [String: Any]))
            #expect(
                NSDictionary(dictionary: entry["host"] as! [String: Any]).isEqual(to: ["thirdParty": [String: Any]()]))
        }
        #expect(
            try fixture.text("out/BackgroundAssets/site/download-manifest.json").hasPrefix(
                "{\n  \"assetPacks\": [\n    {\n      \"id\": "))
        #expect(
            (try fixture.json("out/odrpack-manifest.json")["backgroundAssets"] as? [String: Any])?["urlPrefix"]
                as? String == "https://cdn.example.com/packs/")
        #expect(try fixture.run(["verify", "out"]).status == 0)

        // A changed site file is found by verify and put back by the next build; a stray file is the user's: verify
        // names it and the build leaves it (docs/build-output.md#ownership).
        let tampered = fixture.project.path("out/BackgroundAssets/site/\(siteName(packs[0]))")
        try FileManager.default.removeItem(atPath: tampered)
        try fixture.project.file("out/BackgroundAssets/site/\(siteName(packs[0]))", "tampered")
        try fixture.project.file("out/BackgroundAssets/site/stray", "x")
        let verify = try fixture.run(["verify", "out"])
        #expect(verify.status == 1)
        #expect(verify.stderr.contains("site/\(siteName(packs[0]))") && verify.stderr.contains("site/stray"))
        #expect(try fixture.build(["--url-prefix", "https://cdn.example.com/packs/"]).status == 0)
        #expect(try fixture.text("out/BackgroundAssets/site/stray") == "x")
        try FileManager.default.removeItem(atPath: fixture.project.path("out/BackgroundAssets/site/stray"))
        #expect(try fixture.run(["verify", "out"]).status == 0)
    }

    @Test func verifyFindsEveryKindOfMismatch() throws {
        let fixture = try BackgroundAssetsFixture()
        #expect(try fixture.build().status == 0)
        let id = expectedAssetPackID(["level1"])
        let tampering: [(String, String)] = [
            ("out/BackgroundAssets/\(id).aar", "different bytes"),
            ("out/BackgroundAssets/\(id).json", "{}\n"),
            ("out/BackgroundAssets/AssetPackTags.json", "{}\n"),
            ("out/BackgroundAssets/stray-12345678.aar", "unlisted"),
        ]
        for (path, bytes) in tampering {
            let original = try? fixture.data(path)
            try fixture.project.file(path, bytes)
            let output = try fixture.run(["verify", "out"])
            #expect(output.status == 1, "\(path)")
            #expect(output.stderr.contains((path as NSString).lastPathComponent), "\(output.stderr)")
            if let original {
                try fixture.project.file(path, bytes: original)
            } else {
                try FileManager.default.removeItem(atPath: fixture.project.path(path))
            }
            #expect(try fixture.run(["verify", "out"]).status == 0)
        }
        // A hand-edited asset pack id or policy in the manifest does not pass either.
        let text = try fixture.text("out/odrpack-manifest.json")
        #expect(text.contains("\"essential\": {"))
        try fixture.project.file(
            "out/odrpack-manifest.json", text.replacingOccurrences(of: "\"essential\": {", with: "\"prefetch\": {"))
        #expect(try fixture.run(["verify", "out"]).status == 1)
        try fixture.project.file(
            "out/odrpack-manifest.json",
            text.replacingOccurrences(of: "\"assetPackId\": \"\(id)\"", with: "\"assetPackId\": \"level1\""))
        #expect(try fixture.run(["verify", "out"]).status == 1)
    }

    @Test func diffListsWhatToUploadAndRefusesMixedFormats() throws {
        let fixture = try BackgroundAssetsFixture()
        #expect(try fixture.build(output: "old").status == 0)
        try fixture.project.file("R/Level2/scene.json", "{\"level\": 2, \"more\": true}")
        try fixture.project.file("R/New/thing.json", "new")
        try fixture.project.manifest(
            try fixture.text("odrpack.yml").replacingOccurrences(
                of: "resources:\n", with: "resources:\n  - {path: New, tags: [extra]}\n"))
        #expect(try fixture.build(output: "new").status == 0)
        let output = try fixture.run(["diff", "old", "new", "--json"])
        #expect(output.status == 0)
        let document = try output.json()
        let expected = [expectedAssetPackID(["extra"]), expectedAssetPackID(["level 2"])].sorted()
        #expect(document["upload"] as? [String] == expected)
        #expect((document["summary"] as? [String: Any])?["upload"] as? [String] == expected)
        #expect(try fixture.run(["diff", "old", "new"]).stdout.contains("Upload 2 asset packs"))
        #expect(try fixture.run(["build", "-o", "odr"]).status == 0)
        let mixed = try fixture.run(["diff", "odr", "new"])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("same --format"))
        #expect(try fixture.run(["diff", "odr", "odr", "--json"]).json()["upload"] == nil)
    }

    /// One folder holds one format (docs/build-output.md#ownership): a build of the other format into it is refused and
    /// changes nothing, so Background Assets versions never restart because an ODR build passed through.
    @Test func switchingFormatsInOneFolderIsRefused() throws {
        let fixture = try BackgroundAssetsFixture()
        #expect(try fixture.run(["build", "-o", "out"]).status == 0)
        let odr = try fixture.data("out/odrpack-manifest.json")
        let refused = try fixture.build()
        #expect(
            refused.status == 2 && refused.stderr.contains("holds an On-Demand Resources build"), "\(refused.stderr)")
        #expect(try fixture.data("out/odrpack-manifest.json") == odr)
        #expect(!FileManager.default.fileExists(atPath: fixture.project.path("out/BackgroundAssets")))
        #expect(try fixture.run(["verify", "out"]).status == 0)
        #expect(try fixture.build(output: "ba").status == 0)
        let back = try fixture.run(["build", "-o", "ba"])
        #expect(back.status == 2 && back.stderr.contains("holds a Background Assets build"), "\(back.stderr)")
        #expect(try fixture.json("ba/odrpack-manifest.json")["format"] as? String == "background-assets")
        #expect(try fixture.run(["verify", "ba"]).status == 0)
    }
}
