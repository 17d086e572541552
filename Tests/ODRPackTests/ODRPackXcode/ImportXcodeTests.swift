import Foundation
import ODRPackCore
import ODRPackPlatform
import Testing

@testable import ODRPackXcode

/// `odrpack import-xcode` on hand-written projects in Xcode's formats (Tests/ODRPackTests/Fixtures/Xcode).
@Suite struct ImportXcodeTests {
    static let fixtures = TestPaths.fixtures("Xcode")

    /// A copy of the Bamboo fixture, so tests can write manifests and break files.
    func bamboo() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try FileManager.default.removeItem(at: project.root)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("Bamboo"), to: project.root)
        return project
    }

    static let header = """
        # Imported by odrpack import-xcode from Bamboo.xcodeproj, target %@, configuration Release.
        # bundle-id: PRODUCT_BUNDLE_IDENTIFIER of that configuration; profile: its SDKROOT.
        # resources: ASSET_TAGS of the target's resource files and folder references, assetTagsByRelativePath of its
        #   synchronized folders, and on-demand-resource-tags of asset catalog items (tagged as folders).
        #   'into' puts each file where Xcode's Copy Bundle Resources does; catalog items keep their raw paths.
        # initial-install: ON_DEMAND_RESOURCES_INITIAL_INSTALL_TAGS; prefetch-order: ON_DEMAND_RESOURCES_PREFETCH_ORDER.

        """

    /// Each pack's tags joined with "+" -> its files' destinations, from `plan --json`.
    static func packContents(_ document: [String: Any]) -> [String: [String]] {
        var contents: [String: [String]] = [:]
        for pack in document["packs"] as? [[String: Any]] ?? [] {
            contents[(pack["tags"] as! [String]).joined(separator: "+")] = (pack["files"] as! [[String: Any]]).map {
                $0["path"] as! String
            }
        }
        return contents
    }

    @Test func importsTheApplicationTargetExactly() throws {
        let project = try bamboo()
        let output = try CommandRunner.run(
            ["import-xcode", "Bamboo.xcodeproj", "--target", "Bamboo"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        let written = try String(contentsOfFile: project.path("odrpack.yml"), encoding: .utf8)
        let expected =
            Self.header.replacingOccurrences(of: "%@", with: "Bamboo") + """
                # Notes:
                #   - 'Bamboo/Levels/Level2/scene.json' is also copied untagged to the app's bundle root; the tagged folder 'Bamboo/Levels/Level2' puts it in its pack too
                #   - ON_DEMAND_RESOURCES_INITIAL_INSTALL_TAGS quotes the tag 'boss fight', which contains a space; in the manifest it is one tag
                version: 1
                bundle-id: "com.example.Bamboo"
                profile: ios
                resources-root: "."
                untagged: ignore
                resources:
                  - path: "Bamboo/Assets.xcassets/Boss.imageset"   # Contents.json
                    tags: ["boss fight", "level2"]
                  - path: "Bamboo/Assets.xcassets/Hero.imageset"   # Contents.json
                    tags: ["level1"]
                  - path: "Bamboo/Levels/Level1"   # ASSET_TAGS
                    tags: ["level1"]
                    into: "."
                  - path: "Bamboo/Levels/Level2"   # ASSET_TAGS
                    tags: ["level2"]
                    into: "."
                  - path: "Bamboo/Shared/paddle.png"   # ASSET_TAGS
                    tags: ["level1", "level2"]
                    into: "."
                  - path: "Extras/credits.json"   # ASSET_TAGS
                    tags: ["credits"]
                    into: "."
                  - glob: "Store/GoldenPaddle/**"   # assetTagsByRelativePath
                    tags: ["golden-paddle"]
                    into: "."
                  - path: "Store/Skins/red.png"   # assetTagsByRelativePath
                    tags: ["golden-paddle", "skins"]
                    into: "."
                initial-install: ["level1", "boss fight"]
                prefetch-order: ["level2", "credits"]
                exclude: ["Store/GoldenPaddle/**/.*", "Store/GoldenPaddle/**/.*/**"]

                """
        #expect(written == expected)

        // plan accepts it unchanged, with the packs Xcode would make at Xcode's paths.
        let plan = try CommandRunner.run(["plan", "--json"], in: project.root)
        #expect(plan.status == 0, "\(plan.stderr)")
        let document = try plan.json()
        #expect(document["appBundle"] is NSNull)
        // Only the catalogs' own warning: their raw files are packed (docs/diagnostics.md).
        #expect(
            (document["diagnostics"] as? [[String: Any]])?.map { $0["code"] as? String } == [
                "asset-catalog-uncompiled", "asset-catalog-uncompiled",
            ])
        #expect(
            Self.packContents(document) == [
                "boss fight+level2": [
                    "Bamboo/Assets.xcassets/Boss.imageset/Contents.json",
                    "Bamboo/Assets.xcassets/Boss.imageset/boss.png",
                ],
                "level1": [
                    "Bamboo/Assets.xcassets/Hero.imageset/Contents.json",
                    "Bamboo/Assets.xcassets/Hero.imageset/hero.png",
                    "Level1/scene.json",
                ],
                "level1+level2": ["paddle.png"],
                "level2": ["Level2/scene.json"],
                "credits": ["credits.json"],
                "golden-paddle": ["golden.png"],
                "golden-paddle+skins": ["red.png"],
            ])
        let packs = try #require(document["packs"] as? [[String: Any]])
        let categories = Dictionary(
            uniqueKeysWithValues: packs.map {
                (($0["tags"] as! [String]).joined(separator: "+"), $0["category"] as! String)
            })
        #expect(categories["boss fight+level2"] == "initial-install")
        #expect(categories["credits"] == "prefetch")
        #expect(categories["golden-paddle"] == "on-demand")
        // KnownAssetTags lists only level1 and level2: the other used tags are imported all the same.
        #expect(
            Set((document["tags"] as! [[String: Any]]).map { $0["name"] as! String })
                == ["boss fight", "credits", "golden-paddle", "level1", "level2", "skins"])
        // An existing manifest is not overwritten without --force.
        let again = try CommandRunner.run(["import-xcode", "Bamboo.xcodeproj", "--target", "Bamboo"], in: project.root)
        #expect(again.status == 2 && again.stderr.contains("odrpack.yml") && again.stderr.contains("--force"))
        #expect(try String(contentsOfFile: project.path("odrpack.yml"), encoding: .utf8) == expected)
        #expect(
            try CommandRunner.run(["import-xcode", ".", "--target", "Bamboo", "--force"], in: project.root).status == 0)
    }

    /// A tvOS app whose resources live beside the project folder: a file reference in a group, a folder reference,
    /// a variant group, files in groups above the project, a synchronized folder with a folder key, membership
    /// exceptions, a .lproj and an explicit folder, a catalog in it, and settings from xcconfig files. Every
    /// destination is checked against the layout rule of docs/xcode.md, by path.
    @Test func aTVAppBesideItsMediaGetsXcodesLayout() throws {
        let project = try TemporaryProject()
        try FileManager.default.removeItem(at: project.root)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("Orchard"), to: project.root)
        let app = project.root.appendingPathComponent("App")
        let output = try CommandRunner.run(["import-xcode", "Orchard.xcodeproj", "--target", "OrchardTV"], in: app)
        #expect(output.status == 0, "\(output.stderr)")
        let written = try String(contentsOfFile: project.path("App/odrpack.yml"), encoding: .utf8)
        // The deepest folder holding the project folder and ../Media; the platform from the xcconfig's SDKROOT.
        #expect(written.contains("resources-root: \"..\"\nuntagged: ignore\n"))
        #expect(written.contains("profile: tvos\n"))
        #expect(written.contains("bundle-id: \"com.example.orchard.tv\"\n"))
        #expect(written.contains("initial-install: [\"trees\"]\nprefetch-order: [\"sounds\"]\n"))
        let plan = try CommandRunner.run(["plan", "--json"], in: app)
        #expect(plan.status == 0, "\(plan.stderr)")
        let document = try plan.json()
        #expect(document["profile"] as? String == "tvos")
        #expect(
            Self.packContents(document) == [
                "intro": ["intro.mov"],  // a file reference in ../Media: the root
                "trees": ["Trees/Apple/apple.json", "Trees/Apple/leaf/leaf.png"],  // a folder reference keeps its name
                "story": ["en.lproj/Story.strings", "fr.lproj/Story.strings"],  // a variant group: <language>.lproj
                "sounds": ["chime.caf"],  // a file in a nested group: the root
                "seeds": ["a.txt", "b.txt"],  // a synchronized folder key: its files, flat; skip.txt excluded
                "help": ["de.lproj/Help.txt"],  // a synchronized .lproj
                "maps": ["World/map.json"],  // an explicit folder keeps its name
                "fruit": [
                    "App/Garden/Art.xcassets/Fruit.imageset/Contents.json",
                    "App/Garden/Art.xcassets/Fruit.imageset/fruit.png",
                ],
            ])
        #expect(
            (document["diagnostics"] as? [[String: Any]])?.map { $0["code"] as? String } == ["asset-catalog-uncompiled"]
        )
        // The build places every file at its destination, and verify agrees.
        #expect(try CommandRunner.run(["build", "-o", "../out"], in: app).status == 0)
        #expect(try CommandRunner.run(["verify", "../out"], in: app).status == 0)
    }

    /// What Xcode makes no packs for is exit 2, saying why; an unknown target is a bad command line.
    @Test func targetsWithoutOnDemandResourcesAreRefused() throws {
        let project = try TemporaryProject()
        try FileManager.default.removeItem(at: project.root)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("Orchard"), to: project.root)
        let app = project.root.appendingPathComponent("App")
        func run(_ extra: [String]) throws -> CommandRunner.Output {
            try CommandRunner.run(["import-xcode", "Orchard.xcodeproj", "-o", "x.yml"] + extra, in: app)
        }
        let mac = try run(["--target", "OrchardMac"])
        #expect(mac.status == 2 && mac.stderr.hasPrefix("odrpack: error: target 'OrchardMac' builds for macosx: "))
        let lite = try run(["--target", "OrchardLite"])
        #expect(lite.status == 2 && lite.stderr.contains("--setting ENABLE_ON_DEMAND_RESOURCES=YES"))
        let framework = try run(["--target", "OrchardKit"])
        #expect(framework.status == 2 && framework.stderr.contains("com.apple.product-type.framework"))
        #expect(!FileManager.default.fileExists(atPath: project.path("App/x.yml")))
        let forced = try run(["--target", "OrchardLite", "--setting", "ENABLE_ON_DEMAND_RESOURCES=YES"])
        #expect(forced.status == 0)
        #expect(try String(contentsOfFile: project.path("App/x.yml"), encoding: .utf8).contains("profile: ios\n"))
        #expect(try run(["--target", "Nope"]).status == 64)
        // A folder that holds exactly one project stands for it; none or several is a bad command line.
        #expect(
            try CommandRunner.run(["import-xcode", "App", "--target", "OrchardTV", "-o", "y.yml"], in: project.root)
                .status == 0)
        #expect(try CommandRunner.run(["import-xcode", "Media", "-o", "z.yml"], in: project.root).status == 64)
    }

    /// Groups that contain each other are exit 2 with a message (they crashed with SIGSEGV); names with line breaks
    /// never break the YAML.
    @Test func cyclicGroupsAndHostileNames() throws {
        let project = try TemporaryProject()
        try project.folder("Loop.xcodeproj")
        try project.file(
            "Loop.xcodeproj/project.pbxproj",
            """
            // !$*UTF8*$!
            { archiveVersion = 1; objectVersion = 77; objects = {
              B1 = {isa = PBXBuildFile; fileRef = F1; settings = {ASSET_TAGS = (a, ); }; };
              F1 = {isa = PBXFileReference; path = x.png; sourceTree = "<group>"; };
              G1 = {isa = PBXGroup; children = (G2, ); path = one; sourceTree = "<group>"; };
              G2 = {isa = PBXGroup; children = (G1, F1, ); path = two; sourceTree = "<group>"; };
              P1 = {isa = PBXResourcesBuildPhase; files = (B1, ); };
              T1 = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (P1, ); name = "Loop\u{2028}App"; productType = "com.apple.product-type.application"; };
              C1 = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = com.example.loop; SDKROOT = iphoneos; }; name = Release; };
              L1 = {isa = XCConfigurationList; buildConfigurations = (C1, ); };
              R1 = {isa = PBXProject; mainGroup = G1; targets = (T1, ); };
            }; rootObject = R1; }
            """)
        let loop = try CommandRunner.run(["import-xcode", "Loop.xcodeproj"], in: project.root)
        #expect(loop.status == 2, "\(loop.stderr)")
        #expect(loop.stderr.contains("cycle"))
        // The same project without the cycle, its target named with a line separator.
        let fixed = try String(contentsOfFile: project.path("Loop.xcodeproj/project.pbxproj"), encoding: .utf8)
            .replacingOccurrences(of: "children = (G1, F1, )", with: "children = (F1, )")
        try project.file("Loop.xcodeproj/project.pbxproj", fixed)
        try project.file("one/two/x.png", "PNG")
        let imported = try CommandRunner.run(["import-xcode", "Loop.xcodeproj"], in: project.root)
        #expect(imported.status == 0, "\(imported.stderr)")
        let text = try String(contentsOfFile: project.path("odrpack.yml"), encoding: .utf8)
        #expect(!text.contains("\u{2028}"))
        #expect(try CommandRunner.run(["plan"], in: project.root).status == 0)
        #expect(ImportedManifestWriter.comment("a\nb\rc\u{85}d\u{2028}e\u{2029}f") == "a b c d e f")
        #expect(YAMLScalar.doubleQuoted("a\u{2028}b\u{85}\n") == "\"a\\u2028b\\u0085\\n\"")
    }

    @Test func anotherTargetHasOtherTagsAndNeedsASetting() throws {
        let project = try bamboo()
        let missing = try CommandRunner.run(
            ["import-xcode", "Bamboo.xcodeproj", "--target", "BambooTV", "--output", "tv.yml"], in: project.root)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("pass --setting TV_BUNDLE_ID=VALUE"))
        #expect(!FileManager.default.fileExists(atPath: project.path("tv.yml")))
        let malformed = try CommandRunner.run(
            ["import-xcode", "Bamboo.xcodeproj", "--setting", "=VALUE"], in: project.root)
        #expect(malformed.status == 64 && malformed.stderr.contains("--setting takes NAME=VALUE"))
        try project.folder("Config")
        let again = try CommandRunner.run(
            [
                "import-xcode", "Bamboo.xcodeproj", "--target", "BambooTV", "--output", "Config/tv.yml",
                "--setting", "TV_BUNDLE_ID=com.example.bamboo.tv",
            ], in: project.root)
        #expect(again.status == 0, "\(again.stderr)")
        let written = try String(contentsOfFile: project.path("Config/tv.yml"), encoding: .utf8)
        #expect(
            written == Self.header.replacingOccurrences(of: "%@", with: "BambooTV") + """
                version: 1
                bundle-id: "com.example.bamboo.tv"
                profile: ios
                resources-root: ".."
                untagged: ignore
                resources:
                  - path: "Bamboo/Levels/Level1"   # ASSET_TAGS
                    tags: ["tv-level1"]
                    into: "."
                  - path: "Bamboo/UI/menu.json"   # ASSET_TAGS
                    tags: ["tv menu"]
                    into: "."
                  - path: "Store/Skins/blue.png"   # assetTagsByRelativePath
                    tags: ["tv-skins"]
                    into: "."
                initial-install: ["tv-level1"]
                prefetch-order: []

                """)
        let plan = try CommandRunner.run(["plan", "Config/tv.yml", "--json"], in: project.root)
        #expect(plan.status == 0)
        #expect(
            Self.packContents(try plan.json()) == [
                "tv menu": ["menu.json"], "tv-level1": ["Level1/scene.json"], "tv-skins": ["blue.png"],
            ])
    }

    @Test func choosingTargetsAndConfigurations() throws {
        let project = try bamboo()
        let several = try CommandRunner.run(["import-xcode", "Bamboo.xcodeproj"], in: project.root)
        #expect(several.status == 64)
        #expect(several.stderr.contains("Bamboo, BambooTV"))
        let unknown = try CommandRunner.run(["import-xcode", "Bamboo.xcodeproj", "--target", "Nope"], in: project.root)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("Bamboo, BambooTV, BambooTests"))
        let configuration = try CommandRunner.run(
            ["import-xcode", "Bamboo.xcodeproj", "--target", "BambooTV", "--configuration", "Debug"],
            in: project.root)
        #expect(configuration.status == 2)
        #expect(configuration.stderr.contains("--configuration (Release)"))
        let debug = try CommandRunner.run(
            ["import-xcode", "Bamboo.xcodeproj", "--target", "Bamboo", "--configuration", "Debug", "--force"],
            in: project.root)
        #expect(debug.status == 0)
        let written = try String(contentsOfFile: project.path("odrpack.yml"), encoding: .utf8)
        #expect(written.contains("bundle-id: \"com.example.debug.Bamboo\""))
        #expect(written.contains("initial-install: []"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: project.root.path).allSatisfy {
                !$0.contains(".odrpack-tmp-")
            })
    }

    @Test func badProjectsAreClearErrorsAndWriteNothing() throws {
        let project = try bamboo()
        func run(_ path: String) throws -> CommandRunner.Output {
            try CommandRunner.run(
                ["import-xcode", path, "--target", "Bamboo", "--output", "out.yml"], in: project.root)
        }
        let notProject = try run("Bamboo")
        #expect(notProject.status == 64 && notProject.stderr.contains("holds no .xcodeproj"))
        try project.folder("Empty.xcodeproj")
        #expect(try run("Empty.xcodeproj").stderr.contains("no readable project.pbxproj"))
        try project.folder("Broken.xcodeproj")
        try project.file("Broken.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ objects = { A = {isa = ")
        let broken = try run("Broken.xcodeproj")
        #expect(broken.status == 2 && broken.stderr.contains("not a valid project file"))
        try project.file("Bamboo/Assets.xcassets/Coin.imageset/Contents.json", "{ not json")
        let catalog = try run("Bamboo.xcodeproj")
        #expect(catalog.status == 2)
        #expect(catalog.stderr.contains("Coin.imageset/Contents.json' is not valid JSON"))
        #expect(!FileManager.default.fileExists(atPath: project.path("out.yml")))
    }

    /// Each refusal carries its facts (the target, the configuration, the setting, the file): what the messages
    /// above say is made from them (XcodeFailure.description, ODRPackErrorTests).
    @Test func refusalsCarryTheirFacts() throws {
        func failure(_ path: URL, target: String?, configuration: String = "Release") -> ODRPackError? {
            var options = XcodeImporter.Options()
            options.target = target
            options.configuration = configuration
            return ODRPackError.thrown { _ = try XcodeImporter(options: options).importProject(at: path.path) }
        }
        let orchard = Self.fixtures.appendingPathComponent("Orchard/App/Orchard.xcodeproj")
        #expect(failure(orchard, target: "OrchardMac") == .xcode(.unsupportedSDK(target: "OrchardMac", sdk: "macosx")))
        #expect(
            failure(orchard, target: "OrchardLite")
                == .xcode(.onDemandResourcesDisabled(target: "OrchardLite", configuration: "Release")))
        #expect(
            failure(orchard, target: "OrchardKit")
                == .xcode(.notAnApplication(target: "OrchardKit", productType: "com.apple.product-type.framework")))
        let project = try bamboo()
        let bamboo = project.root.appendingPathComponent("Bamboo.xcodeproj")
        #expect(
            failure(bamboo, target: "BambooTV")
                == .xcode(
                    .undefinedSetting(
                        setting: "PRODUCT_BUNDLE_IDENTIFIER", uses: "TV_BUNDLE_ID", configuration: "Release")))
        #expect(
            failure(bamboo, target: "BambooTV", configuration: "Debug")
                == .xcode(.missingConfiguration(target: "BambooTV", configuration: "Debug", available: ["Release"])))
        try project.folder("Empty.xcodeproj")
        let empty = project.root.appendingPathComponent("Empty.xcodeproj").path
        #expect(failure(URL(fileURLWithPath: empty), target: nil) == .xcode(.unreadableProjectFile(empty)))
        try project.folder("Broken.xcodeproj")
        try project.file("Broken.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ objects = { A = {isa = ")
        let broken = XcodeProject.absolutePath(project.path("Broken.xcodeproj")).joined("project.pbxproj")
        #expect(
            failure(project.root.appendingPathComponent("Broken.xcodeproj"), target: nil)
                == .xcode(.corruptProjectFile(broken)))
        try project.file("Bamboo/Assets.xcassets/Coin.imageset/Contents.json", "{ not json")
        let coin = XcodeProject.absolutePath(project.path("Bamboo/Assets.xcassets/Coin.imageset/Contents.json"))
        #expect(failure(bamboo, target: "Bamboo") == .xcode(.invalidCatalogJSON(coin)))
    }

    @Test func quotedSettingLists() {
        #expect(XcodeImporter.tagList("level1 \"boss fight\"  'a b' c") == ["level1", "boss fight", "a b", "c"])
        #expect(XcodeImporter.tagList("") == [])
        #expect(XcodeImporter.tagList(nil) == [])
    }
}
