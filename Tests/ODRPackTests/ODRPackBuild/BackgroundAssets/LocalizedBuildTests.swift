import Foundation
import Testing

@testable import ODRPackCore

/// docs/background-assets.md#languages and #platforms, end to end: build writes each localized and platform pack's
/// `<id>.json`, the build manifest's `language` and `platforms`, and `AssetPackTags.json` with `localizedTags` and
/// `platforms`; verify regenerates them; thin gives the app its own platform's packs; an ODR build is the same bytes
/// with and without `language` keys, records its `--platform`, and thin refuses an app of another platform.
@Suite struct LocalizedBuildTests {
    let project: TemporaryProject

    init() throws {
        project = try TemporaryProject()
        try project.file("R/Voice/en/line.caf", "en-line")
        try project.file("R/Voice/fr/line.caf", "fr-line")
        try project.file("R/Characters/hero.png", "hero")
        try project.file("R/Characters4K/hero.png", "hero-4k")
    }

    static func manifest(platforms: String = "[iOS, tvOS]", extra: String = "") -> String {
        """
        version: 1
        bundle-id: com.example.game
        resources-root: R
        resources:
          - path: "Voice/{language}"
            tags: [voice]
          - path: Characters
            tags: [characters]
          - path: Characters4K
            tags: [characters]
            platforms: [tvOS]
        \(extra)
        background-assets:
          platforms: \(platforms)
          app-group: group.com.example.game
        """
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> CommandRunner.Output {
        try CommandRunner.run(arguments, in: project.root)
    }

    func buildBackgroundAssets(platforms: String = "[iOS, tvOS]") throws {
        try project.manifest(Self.manifest(platforms: platforms))
        let built = try run([
            "build", "--format", "background-assets", "-o", "out", "--ba-package",
            BackgroundAssetsFixture.packagerCommand,
        ])
        #expect(built.status == 0, "\(built.stderr)")
    }

    func text(_ relative: String) throws -> String {
        String(decoding: try Data(contentsOf: project.root.appendingPathComponent(relative)), as: UTF8.self)
    }

    /// An app whose Info.plist names `platforms` in CFBundleSupportedPlatforms (none: no key).
    func app(_ name: String, platforms: [String]?) throws {
        let list = platforms.map {
            "<key>CFBundleSupportedPlatforms</key><array>"
                + $0.map { "<string>\($0)</string>" }.joined() + "</array>"
        }
        try project.file(
            "\(name)/Info.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.game</string>\
            \(list ?? "")</dict></plist>
            """)
        try project.file("\(name)/Voice/en/line.caf", "en-line")
        try project.file("\(name)/Characters4K/hero.png", "hero-4k")
    }

    static let voice = expectedAssetPackID(["voice"])
    static let characters = expectedAssetPackID(["characters"])

    @Test func localizedAndPlatformPacksGetTheirDocumentsAndVerify() throws {
        try buildBackgroundAssets()
        let folder = "out/BackgroundAssets/"
        #expect(
            try text(folder + Self.voice + "-fr.json") == """
                {
                  "assetPackID": "\(Self.voice)-fr",
                  "downloadPolicy": {
                    "onDemand": {}
                  },
                  "fileSelectors": [
                    {
                      "file": "Voice/fr/line.caf"
                    }
                  ],
                  "language": "fr",
                  "platforms": [
                    "iOS",
                    "tvOS"
                  ]
                }

                """)
        #expect(
            try text(folder + Self.characters + "-tvos.json") == """
                {
                  "assetPackID": "\(Self.characters)-tvos",
                  "downloadPolicy": {
                    "onDemand": {}
                  },
                  "fileSelectors": [
                    {
                      "file": "Characters4K/hero.png"
                    }
                  ],
                  "platforms": [
                    "tvOS"
                  ]
                }

                """)
        let (v, c) = (Self.voice, Self.characters)
        #expect(
            try text(folder + "AssetPackTags.json") == """
                {
                  "bundleId": "com.example.game",
                  "localizedTags": {
                    "voice": {
                      "en": [
                        "\(v)-en"
                      ],
                      "fr": [
                        "\(v)-fr"
                      ]
                    }
                  },
                  "packs": {
                    "\(c)": [
                      "Characters/hero.png"
                    ],
                    "\(c)-tvos": [
                      "Characters4K/hero.png"
                    ],
                    "\(v)-en": [
                      "Voice/en/line.caf"
                    ],
                    "\(v)-fr": [
                      "Voice/fr/line.caf"
                    ]
                  },
                  "platforms": {
                    "\(c)": [
                      "iOS",
                      "tvOS"
                    ],
                    "\(c)-tvos": [
                      "tvOS"
                    ],
                    "\(v)-en": [
                      "iOS",
                      "tvOS"
                    ],
                    "\(v)-fr": [
                      "iOS",
                      "tvOS"
                    ]
                  },
                  "tags": {
                    "characters": [
                      "\(c)",
                      "\(c)-tvos"
                    ],
                    "voice": []
                  }
                }

                """)
        // The build manifest: each pack's language (null when none) and platforms; ids unique, the shared pack's as before.
        let document = try JSONSerialization.jsonObject(with: Data(try text("out/odrpack-manifest.json").utf8))
        let packs = try #require((document as? [String: Any])?["packs"] as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: packs.map { ($0["assetPackId"] as! String, $0) })
        #expect(byID[v + "-fr"]?["language"] as? String == "fr")
        #expect(byID[c]?["language"] is NSNull && byID[c]?["platforms"] as? [String] == ["iOS", "tvOS"])
        #expect(byID[c + "-tvos"]?["platforms"] as? [String] == ["tvOS"])
        let md5 = PackIdentity.digest(tags: ["characters"])
        #expect(byID[c]?["id"] as? String == "com.example.game.asset-pack-\(md5)")
        #expect(byID[c + "-tvos"]?["id"] as? String == "com.example.game.asset-pack-\(md5)-tvos")
        #expect(try run(["verify", "out"]).status == 0)

        // A hand-edited language no longer matches the pack's id, <id>.json or AssetPackTags.json.
        let path = project.path("out/odrpack-manifest.json")
        let edited = try text("out/odrpack-manifest.json").replacingOccurrences(
            of: "\"language\": \"fr\"", with: "\"language\": \"de\"")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: path))
        let verified = try run(["verify", "out"])
        #expect(verified.status == 1)
        #expect(
            verified.stdout.contains("verify-figures-mismatch") || verified.stderr.contains("verify-figures-mismatch"))
    }

    @Test func thinGivesTheAppItsOwnPlatformsPacksWithoutPlatforms() throws {
        try buildBackgroundAssets()
        try app("TV.app", platforms: ["AppleTVOS"])
        #expect(try run(["thin", "TV.app", "out"]).status == 0)
        let tv = try text("TV.app/AssetPackTags.json")
        #expect(tv.contains("\"\(Self.characters)-tvos\": [") && !tv.contains("\"platforms\""))
        #expect(tv.contains("\"localizedTags\""))
        // Its platform's packs' files left the app.
        #expect(!FileManager.default.fileExists(atPath: project.path("TV.app/Characters4K/hero.png")))

        try app("Phone.app", platforms: ["iPhoneOS"])
        #expect(try run(["thin", "Phone.app", "out"]).status == 0)
        let phone = try text("Phone.app/AssetPackTags.json")
        #expect(!phone.contains("-tvos") && phone.contains("\"\(Self.characters)\": ["))
        // The tvOS pack's file is not the iPhone app's to lose.
        #expect(FileManager.default.fileExists(atPath: project.path("Phone.app/Characters4K/hero.png")))

        // A platform the build does not list, and an app whose platform cannot be told among two: exit 2, unchanged.
        for (name, platforms) in [("Vision.app", ["XROS"]), ("Plain.app", nil)] as [(String, [String]?)] {
            try app(name, platforms: platforms)
            let before = try text(name + "/Info.plist")
            let thinned = try run(["thin", name, "out"])
            #expect(thinned.status == 2, "\(name): \(thinned.stderr)")
            #expect(thinned.stderr.contains("CFBundleSupportedPlatforms"))
            #expect(try text(name + "/Info.plist") == before)
            #expect(!FileManager.default.fileExists(atPath: project.path(name + "/AssetPackTags.json")))
        }
    }

    /// With one platform in the build, an app without the key is that platform's.
    @Test func anAppWithoutItsPlatformTakesTheBuildsOnlyPlatform() throws {
        try project.manifest(
            Self.manifest(platforms: "[tvOS]"))
        #expect(
            try run([
                "build", "--format", "background-assets", "-o", "out", "--ba-package",
                BackgroundAssetsFixture.packagerCommand,
            ]).status == 0)
        try app("Plain.app", platforms: nil)
        #expect(try run(["thin", "Plain.app", "out"]).status == 0)
        // Every pack is for tvOS, the build's whole list: no platform suffix.
        #expect(try text("Plain.app/AssetPackTags.json").contains("\"\(Self.characters)\": ["))
    }

    /// ODR has no languages: the same manifest with and without its `language` keys writes the same bytes.
    @Test func anODRBuildIsTheSameBytesWithAndWithoutLanguageKeys() throws {
        try project.file("R/Intro/movie.mov", "movie")
        func manifest(language: String) -> String {
            """
            version: 1
            bundle-id: com.example.game
            resources-root: R
            resources:
              - path: Voice/en
                tags: [voice]\(language.isEmpty ? "" : "\n    language: en")
              - path: Voice/fr
                tags: [voice]\(language.isEmpty ? "" : "\n    language: \(language)")
              - path: Intro
                tags: [intro]
            initial-install: [voice]
            """
        }
        // One --template-path, so that the template's URLs do not name the two folders.
        try project.manifest(manifest(language: "fr"))
        #expect(try run(["build", "-o", "with", "--template-path", "/odrpack/game"]).status == 0)
        try project.manifest(manifest(language: ""))
        #expect(try run(["build", "-o", "without", "--template-path", "/odrpack/game"]).status == 0)
        let with = try Self.files(in: project.path("with"))
        let without = try Self.files(in: project.path("without"))
        #expect(!with.isEmpty && with.keys.contains("odrpack-manifest.json"))
        #expect(with.keys.sorted() == without.keys.sorted())
        for (name, bytes) in with { #expect(without[name] == bytes, "\(name) differs") }
    }

    /// Every file under `folder` but the lock, by relative path.
    static func files(in folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = folder + "/" + name
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                !name.hasSuffix(".odrpack.lock")
            else { continue }
            files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return files
    }

    @Test func anODRBuildRecordsItsPlatformAndThinRefusesAnotherPlatformsApp() throws {
        try project.manifest(Self.manifest())
        #expect(try run(["build", "-o", "odr", "--platform", "tvos"]).status == 0)
        let document = try text("odr/odrpack-manifest.json")
        #expect(document.hasPrefix("{\n  \"schemaVersion\": 1,\n  \"format\": \"odr\",\n  \"platform\": \"tvOS\",\n"))
        #expect(document.contains("\"path\": \"Characters4K/hero.png\""))
        try app("Phone.app", platforms: ["iPhoneOS"])
        let refused = try run(["thin", "Phone.app", "odr"])
        #expect(refused.status == 2 && refused.stderr.contains("--platform iOS"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.path("Phone.app/OnDemandResources.plist")))
        // ipa refuses it before any work.
        let ipa = try run(["ipa", "Phone.app", "odr", "--output", "Game.ipa"])
        #expect(ipa.status == 2 && ipa.stderr.contains("--platform iOS"), "\(ipa.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.ipa")))
        try app("TV.app", platforms: ["AppleTVOS"])
        #expect(try run(["thin", "TV.app", "odr"]).status == 0)
        try app("Plain.app", platforms: nil)
        #expect(try run(["thin", "Plain.app", "odr"]).status == 0)
        // The default for a manifest whose profile is not tvos: iOS, without the tvOS-only file.
        #expect(try run(["build", "-o", "ios"]).status == 0)
        let ios = try text("ios/odrpack-manifest.json")
        #expect(ios.contains("\"platform\": \"iOS\"") && !ios.contains("Characters4K"))
        #expect(try run(["verify", "ios"]).status == 0)
        // Another platform into the same folder is a changed build, never the previous one replayed.
        #expect(try run(["build", "-o", "ios", "--platform", "tvOS"]).status == 0)
        let again = try text("ios/odrpack-manifest.json")
        #expect(again.contains("\"platform\": \"tvOS\"") && again.contains("Characters4K"))
        #expect(try run(["verify", "ios"]).status == 0)
    }

    @Test func planShowsLanguagesPlatformAndRefusesPlatformForBackgroundAssets() throws {
        try project.manifest(Self.manifest(extra: "initial-install: [voice]"))
        let plan = try run(["plan", "--format", "background-assets"])
        #expect(plan.status == 0)
        #expect(plan.stdout.contains("ASSET PACK ID") && plan.stdout.contains("LANGUAGE"))
        #expect(plan.stdout.contains("  PLATFORM  LANGUAGE  AT INSTALLATION  UP TO\n"))
        // en: 7 bytes at installation; up to the shared hero (4) too, and on tvOS the 4K one (7).
        #expect(plan.stdout.contains("  iOS       en                    7 B   11 B\n"))
        #expect(plan.stdout.contains("  tvOS      fr                    7 B   18 B\n"))
        #expect(plan.stdout.contains("devices below iOS, iPadOS, tvOS and visionOS 27 receive no localized pack"))
        let json = try run(["plan", "--format", "background-assets", "--json"]).json()
        let languages = try #require(json["languages"] as? [[String: Any]])
        #expect(languages.count == 4)
        #expect(languages.first?["language"] as? String == "en" && languages.first?["platform"] as? String == "iOS")
        #expect(languages.first?["initialInstallSize"] as? Int == 7 && languages.first?["upToSize"] as? Int == 11)

        let odr = try run(["plan"])
        #expect(odr.stdout.contains("Languages: ODR has none: each pack holds every language of its files (en, fr)"))
        #expect(odr.stdout.contains("Platform: iOS (--platform): 1 file of entries for other platforms is not packed"))
        #expect(try run(["plan", "--platform", "tvOS"]).stdout.contains("Platform:") == false)
        let refused = try run(["plan", "--format", "background-assets", "--platform", "tvOS"])
        #expect(refused.status == 64 && refused.stderr.contains("--platform applies to --format odr only"))
        #expect(try run(["plan", "--platform", "android"]).status == 64)
        #expect(try run(["validate", "--platform", "visionOS"]).status == 0)
        #expect(try run(["build", "-o", "ba", "--format", "background-assets", "--platform", "iOS"]).status == 64)
    }
}
