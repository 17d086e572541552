import Foundation
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
        # bundle-id: PRODUCT_BUNDLE_IDENTIFIER of that configuration.
        # resources: ASSET_TAGS of the target's resource files and folder references, assetTagsByRelativePath of its
        #   synchronized folders, and on-demand-resource-tags of asset catalog items (tagged as folders).
        # initial-install: ON_DEMAND_RESOURCES_INITIAL_INSTALL_TAGS; prefetch-order: ON_DEMAND_RESOURCES_PREFETCH_ORDER.

        """
    static let excludes = """
        exclude: ["**/*.xcodeproj/**", "**/*.xcworkspace/**", "**/xcuserdata/**", "**/*.swift", "**/*.[hmc]", "**/*.mm", "**/*.cpp", "**/*.xcconfig", "**/*.entitlements"]

        """

    @Test func importsTheApplicationTargetExactly() throws {
        let project = try bamboo()
        let output = try CommandRunner.run(["import-xcode", "Bamboo.xcodeproj", "--target", "Bamboo"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        let written = try String(contentsOfFile: project.path("odrpack.yml"), encoding: .utf8)
        let expected = Self.header.replacingOccurrences(of: "%@", with: "Bamboo") + """
            # Notes:
            #   - 'Bamboo/Levels/Level2/scene.json' is added to the app untagged, but it is inside 'Bamboo/Levels/Level2', which is tagged: here it is tagged
            #   - ON_DEMAND_RESOURCES_INITIAL_INSTALL_TAGS quotes the tag 'boss fight', which contains a space; in the manifest it is one tag
            version: 1
            bundle-id: "com.example.Bamboo"
            resources-root: "."
            resources:
              - path: "Bamboo/Assets.xcassets/Boss.imageset"   # Contents.json
                tags: ["boss fight", "level2"]
              - path: "Bamboo/Assets.xcassets/Hero.imageset"   # Contents.json
                tags: ["level1"]
              - path: "Bamboo/Levels/Level1"   # ASSET_TAGS
                tags: ["level1"]
              - path: "Bamboo/Levels/Level2"   # ASSET_TAGS
                tags: ["level2"]
              - path: "Bamboo/Shared/paddle.png"   # ASSET_TAGS
                tags: ["level1", "level2"]
              - path: "Extras/credits.json"   # ASSET_TAGS
                tags: ["credits"]
              - path: "Store/GoldenPaddle"   # assetTagsByRelativePath
                tags: ["golden-paddle"]
              - path: "Store/Skins/red.png"   # assetTagsByRelativePath
                tags: ["golden-paddle", "skins"]
            initial-install: ["level1", "boss fight"]
            prefetch-order: ["level2", "credits"]

            """ + Self.excludes
        #expect(written == expected)

        // plan accepts it unchanged, with the packs Xcode would make.
        let plan = try CommandRunner.run(["plan", "--json"], in: project.root)
        #expect(plan.status == 0, "\(plan.stderr)")
        let document = try plan.json()
        // Only the catalogs' own warning: their raw files are packed (SPEC 5).
        #expect((document["diagnostics"] as? [[String: Any]])?.map { $0["code"] as? String } == ["asset-catalog-uncompiled", "asset-catalog-uncompiled"])
        let packs = try #require(document["packs"] as? [[String: Any]])
        var contents: [String: [String]] = [:]
        for pack in packs {
            contents[(pack["tags"] as! [String]).joined(separator: "+")] = (pack["files"] as! [[String: Any]]).map { $0["path"] as! String }
        }
        #expect(contents == [
            "boss fight+level2": ["Bamboo/Assets.xcassets/Boss.imageset/Contents.json", "Bamboo/Assets.xcassets/Boss.imageset/boss.png"],
            "level1": ["Bamboo/Assets.xcassets/Hero.imageset/Contents.json", "Bamboo/Assets.xcassets/Hero.imageset/hero.png",
                       "Bamboo/Levels/Level1/scene.json"],
            "level1+level2": ["Bamboo/Shared/paddle.png"],
            "level2": ["Bamboo/Levels/Level2/scene.json"],
            "credits": ["Extras/credits.json"],
            "golden-paddle": ["Store/GoldenPaddle/paddle.png"],
            "golden-paddle+skins": ["Store/Skins/red.png"],
        ])
        let categories = Dictionary(uniqueKeysWithValues: packs.map { (($0["tags"] as! [String]).joined(separator: "+"), $0["category"] as! String) })
        #expect(categories["boss fight+level2"] == "initial-install")
        #expect(categories["credits"] == "prefetch")
        #expect(categories["golden-paddle"] == "on-demand")
        // KnownAssetTags lists only level1 and level2: the other used tags are imported all the same.
        #expect(Set((document["tags"] as! [[String: Any]]).map { $0["name"] as! String })
                == ["boss fight", "credits", "golden-paddle", "level1", "level2", "skins"])
    }

    @Test func anotherTargetHasOtherTagsAndNeedsASetting() throws {
        let project = try bamboo()
        let missing = try CommandRunner.run(["import-xcode", "Bamboo.xcodeproj", "--target", "BambooTV", "--output", "tv.yml"], in: project.root)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("pass --setting TV_BUNDLE_ID=VALUE"))
        #expect(!FileManager.default.fileExists(atPath: project.path("tv.yml")))
        let malformed = try CommandRunner.run(["import-xcode", "Bamboo.xcodeproj", "--setting", "=VALUE"], in: project.root)
        #expect(malformed.status == 64 && malformed.stderr.contains("--setting takes NAME=VALUE"))
        try project.folder("Config")
        let again = try CommandRunner.run(["import-xcode", "Bamboo.xcodeproj", "--target", "BambooTV", "--output", "Config/tv.yml",
                                           "--setting", "TV_BUNDLE_ID=com.example.bamboo.tv"], in: project.root)
        #expect(again.status == 0, "\(again.stderr)")
        let written = try String(contentsOfFile: project.path("Config/tv.yml"), encoding: .utf8)
        #expect(written == Self.header.replacingOccurrences(of: "%@", with: "BambooTV") + """
            version: 1
            bundle-id: "com.example.bamboo.tv"
            resources-root: ".."
            resources:
              - path: "Bamboo/Levels/Level1"   # ASSET_TAGS
                tags: ["tv-level1"]
              - path: "Bamboo/UI/menu.json"   # ASSET_TAGS
                tags: ["tv menu"]
              - path: "Store/Skins/blue.png"   # assetTagsByRelativePath
                tags: ["tv-skins"]
            initial-install: ["tv-level1"]
            prefetch-order: []

            """ + Self.excludes)
        let plan = try CommandRunner.run(["plan", "Config/tv.yml", "--json"], in: project.root)
        #expect(plan.status == 0)
        #expect((try plan.json()["packs"] as? [[String: Any]])?.map { ($0["tags"] as! [String]).joined() }.sorted()
                == ["tv menu", "tv-level1", "tv-skins"])
    }

    @Test func choosingTargetsAndConfigurations() throws {
        let project = try bamboo()
        let several = try CommandRunner.run(["import-xcode", "Bamboo.xcodeproj"], in: project.root)
        #expect(several.status == 2)
        #expect(several.stderr.contains("Bamboo, BambooTV"))
        let unknown = try CommandRunner.run(["import-xcode", "Bamboo.xcodeproj", "--target", "Nope"], in: project.root)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("Bamboo, BambooTV, BambooTests"))
        let configuration = try CommandRunner.run(["import-xcode", "Bamboo.xcodeproj", "--target", "BambooTV", "--configuration", "Debug"],
                                                  in: project.root)
        #expect(configuration.status == 2)
        #expect(configuration.stderr.contains("--configuration (Release)"))
        let debug = try CommandRunner.run(["import-xcode", "Bamboo.xcodeproj", "--target", "Bamboo", "--configuration", "Debug"],
                                          in: project.root)
        #expect(debug.status == 0)
        let written = try String(contentsOfFile: project.path("odrpack.yml"), encoding: .utf8)
        #expect(written.contains("bundle-id: \"com.example.debug.Bamboo\""))
        #expect(written.contains("initial-install: []"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.root.path).allSatisfy { !$0.contains(".odrpack-tmp-") })
    }

    @Test func badProjectsAreClearErrorsAndWriteNothing() throws {
        let project = try bamboo()
        func run(_ path: String) throws -> CommandRunner.Output {
            try CommandRunner.run(["import-xcode", path, "--target", "Bamboo", "--output", "out.yml"], in: project.root)
        }
        let notProject = try run("Bamboo")
        #expect(notProject.status == 2 && notProject.stderr.contains("not an Xcode project"))
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

    @Test func quotedSettingLists() {
        #expect(XcodeImporter.tagList("level1 \"boss fight\"  'a b' c") == ["level1", "boss fight", "a b", "c"])
        #expect(XcodeImporter.tagList("") == [])
        #expect(XcodeImporter.tagList(nil) == [])
    }
}
