import Foundation
import Testing

@testable import ODRPackFormats
@testable import ODRPackPlatform
@testable import ODRPackThin

/// docs/background-assets.md for `thin` with a Background Assets build: the app's own Info.plist read back with Foundation.
@Suite struct BackgroundAssetsThinTests {
    /// The fixture built into `out`, and `Game.app` holding every resource, an Info.plist in `format`, and
    /// optionally a downloader extension.
    func thinnable(
        background: String = "", format: PropertyListSerialization.PropertyListFormat = .xml,
        extensionPoint: String? = "com.apple.background-asset-downloader-extension",
        extensionFolder: String = "Extensions",
        buildOptions: [String] = []
    ) throws -> BackgroundAssetsFixture {
        let fixture = try BackgroundAssetsFixture(background: background)
        #expect(try fixture.build(buildOptions).status == 0)
        for path in [
            "Level1/scene.json", "Level1/music.caf", "Level2/scene.json", "Level2/Deep/texture.png",
            "Shared/paddle.png",
            "Store/ünïcode skin.json", "UI/menu.json",
        ] {
            try fixture.project.file("Game.app/" + path, bytes: try fixture.data("R/" + path))
        }
        let info: [String: Any] = ["CFBundleIdentifier": "com.example.bamboo", "CFBundleVersion": "7"]
        try fixture.project.file(
            "Game.app/Info.plist",
            bytes: try PropertyListSerialization.data(fromPropertyList: info, format: format, options: 0))
        if let extensionPoint {
            let appex: [String: Any] = ["EXAppExtensionAttributes": ["EXExtensionPointIdentifier": extensionPoint]]
            try fixture.project.file(
                "Game.app/\(extensionFolder)/Downloader.appex/Info.plist",
                bytes: try PropertyListSerialization.data(fromPropertyList: appex, format: .binary, options: 0))
        }
        return fixture
    }

    /// The app's platform as `AppPlatform` tells it (docs/background-assets.md#platforms), and the two refusals as
    /// the library throws them: the app as given, its platforms and the build's, in order.
    @Test func theAppsPlatformIsToldOrRefusedWithItsFacts() throws {
        let tv: [String: PropertyListValue] = ["CFBundleSupportedPlatforms": .array([.string("AppleTVOS")])]
        #expect(
            try AppPlatform.backgroundAssetsPlatform(
                info: tv, app: "TV.app", macOSLayout: false, buildPlatforms: ["iOS", "tvOS"]) == "tvOS")
        #expect(
            throws: ODRPackError.thin(
                .platformNotListed(app: "TV.app", platforms: ["tvOS"], buildPlatforms: ["iOS", "macOS"]))
        ) {
            _ = try AppPlatform.backgroundAssetsPlatform(
                info: tv, app: "TV.app", macOSLayout: false, buildPlatforms: ["iOS", "macOS"])
        }
        #expect(throws: ODRPackError.thin(.platformUnknown(app: "Game.app", buildPlatforms: ["iOS", "tvOS"]))) {
            _ = try AppPlatform.backgroundAssetsPlatform(
                info: [:], app: "Game.app", macOSLayout: false, buildPlatforms: ["iOS", "tvOS"])
        }
        #expect(throws: ODRPackError.thin(.platformMismatch(app: "TV.app", platforms: ["tvOS"], build: "iOS"))) {
            try AppPlatform.checkODR(info: tv, app: "TV.app", buildPlatform: "iOS")
        }
    }

    func info(_ fixture: BackgroundAssetsFixture) throws -> (
        plist: [String: Any], format: PropertyListSerialization.PropertyListFormat
    ) {
        var format = PropertyListSerialization.PropertyListFormat.xml
        let plist = try PropertyListSerialization.propertyList(
            from: try fixture.data("Game.app/Info.plist"), options: [], format: &format)
        return (plist as? [String: Any] ?? [:], format)
    }

    func appFiles(_ fixture: BackgroundAssetsFixture) throws -> [String: Data] {
        let root = fixture.project.path("Game.app")
        var files: [String: Data] = [:]
        for path in FileManager.default.subpaths(atPath: root) ?? [] {
            var folder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &folder), !folder.boolValue {
                files[path] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
            }
        }
        return files
    }

    /// An AssetPackTags.json as a dictionary, with or without its `platforms` member; nil when it holds none.
    static func tags(_ data: Data, droppingPlatforms: Bool = false) -> NSDictionary? {
        guard var document = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        if droppingPlatforms {
            guard document.removeValue(forKey: "platforms") != nil else { return nil }
        }
        return document as NSDictionary
    }

    @Test func appleHostingKeepsThePlistFormatAndIsIdempotent() throws {
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let fixture = try thinnable(
                background: "background-assets: {app-group: group.com.example.bamboo}", format: format)
            let output = try fixture.run(["thin", "Game.app", "out", "--json"])
            #expect(output.status == 0, "\(output.stderr)")
            let document = try output.json()
            #expect((document["removed"] as? [String])?.count == 6)
            #expect(document["removedBytes"] as? Int == 50)
            #expect((document["diagnostics"] as? [Any])?.isEmpty == true)
            let (plist, written) = try info(fixture)
            #expect(written == format)
            #expect(plist["BAHasManagedAssetPacks"] as? Bool == true)
            #expect(plist["BAAppGroupID"] as? String == "group.com.example.bamboo")
            #expect(plist["BAUsesAppleHosting"] as? Bool == true)
            #expect(plist["CFBundleVersion"] as? String == "7")
            #expect(plist["BAManifestURL"] == nil && plist["BAInitialDownloadRestrictions"] == nil)
            // The app's platform's document: with one platform, the build's without `platforms`
            // (docs/background-assets.md#platforms).
            #expect(
                try Self.tags(fixture.data("Game.app/AssetPackTags.json"))
                    == Self.tags(fixture.data("out/BackgroundAssets/AssetPackTags.json"), droppingPlatforms: true))
            #expect(
                try appFiles(fixture).keys.sorted() == [
                    "AssetPackTags.json", "Extensions/Downloader.appex/Info.plist", "Info.plist", "UI/menu.json",
                ])
            // Booleans are plist booleans in the bytes, never the integer 1 (docs/background-assets.md).
            let bytes = try fixture.data("Game.app/Info.plist")
            if format == .binary {
                let kinds = try BinaryPlistKinds.read(bytes)
                #expect(kinds["BAHasManagedAssetPacks"] == .bool(true))
                #expect(kinds["BAUsesAppleHosting"] == .bool(true))
            } else {
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(text.contains("<key>BAHasManagedAssetPacks</key>\n\t<true/>"))
                #expect(text.contains("<key>BAUsesAppleHosting</key>\n\t<true/>"))
                #expect(!text.contains("<integer>1</integer>"))
            }
            let once = try appFiles(fixture)
            #expect(try fixture.run(["thin", "Game.app", "out"]).status == 0)
            #expect(try appFiles(fixture) == once)
        }
    }

    /// docs/commands.md#thin: a second thin with the same build changes nothing and says so, as for ODR, in each plist
    /// format and hosting; one that sets another App Group changes the app, and says what it did.
    @Test func aSecondThinSaysItChangedNothing() throws {
        let variants: [(String, PropertyListSerialization.PropertyListFormat, [String])] = [
            ("background-assets: {app-group: group.x.y}", .xml, []),
            ("background-assets: {app-group: group.x.y}", .binary, []),
            ("background-assets: {app-group: group.x.y, hosting: self}", .xml, ["--url-prefix", "https://cdn.x/v1"]),
        ]
        for (background, format, buildOptions) in variants {
            let fixture = try thinnable(background: background, format: format, buildOptions: buildOptions)
            let first = try fixture.run(["thin", "Game.app", "out"])
            #expect(first.status == 0 && first.stdout.hasPrefix("Thinned Game.app: removed 6 files"), "\(first.stdout)")
            let after = try appFiles(fixture)
            let second = try fixture.run(["thin", "Game.app", "out"])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout == "Nothing changed: Game.app was already thinned with this build\n")
            #expect(try appFiles(fixture) == after)
            #expect(try fixture.run(["thin", "Game.app", "out", "--json"]).json()["unchanged"] as? Bool == true)
            // Another App Group is a change: the Info.plist is written again, and the run says it thinned.
            let other = try fixture.run(["thin", "Game.app", "out", "--app-group", "group.other", "--json"])
            #expect(other.status == 0, "\(other.stderr)")
            #expect(try other.json()["unchanged"] as? Bool == false)
            #expect(try info(fixture).plist["BAAppGroupID"] as? String == "group.other")
            // A tags document that differs is a change too.
            try fixture.project.file("Game.app/AssetPackTags.json", "{}")
            #expect(try fixture.run(["thin", "Game.app", "out", "--json"]).json()["unchanged"] as? Bool == false)
        }
    }

    @Test func selfHostingSetsTheDownloadKeys() throws {
        let fixture = try thinnable(
            background: "background-assets: {hosting: self}",
            buildOptions: ["--url-prefix", "https://cdn.example.com/v1"])
        let output = try fixture.run(["thin", "Game.app", "out", "--app-group", "group.com.example.cli"])
        #expect(output.status == 0, "\(output.stderr)")
        let packs = try fixture.json("out/odrpack-manifest.json")["packs"] as? [[String: Any]] ?? []
        func sum(_ category: String, _ key: String) -> Int {
            packs.filter { $0["category"] as? String == category }.reduce(0) { $0 + ($1[key] as? Int ?? 0) }
        }
        let (plist, _) = try info(fixture)
        #expect(plist["BAAppGroupID"] as? String == "group.com.example.cli")
        #expect(plist["BAUsesAppleHosting"] as? Bool == false)
        #expect(plist["BAManifestURL"] as? String == "https://cdn.example.com/v1/download-manifest.json")
        let restrictions = try #require(plist["BAInitialDownloadRestrictions"] as? [String: Any])
        #expect(restrictions["BADownloadDomainAllowList"] as? [String] == ["cdn.example.com"])
        #expect(restrictions["BADownloadAllowance"] as? Int == sum("prefetch", "archiveSize"))
        #expect(restrictions["BAEssentialDownloadAllowance"] as? Int == sum("initial-install", "archiveSize"))
        #expect(plist["BAMaxInstallSize"] as? Int == sum("prefetch", "size"))
        #expect(plist["BAEssentialMaxInstallSize"] as? Int == sum("initial-install", "size"))
        #expect(sum("prefetch", "size") == 21 && sum("initial-install", "size") == 29)
        let text = String(decoding: try fixture.data("Game.app/Info.plist"), as: UTF8.self)
        #expect(text.contains("<key>BAUsesAppleHosting</key>\n\t<false/>"))
        #expect(text.contains("<key>BAMaxInstallSize</key>\n\t<integer>21</integer>"))
    }

    /// Apple hosting removes the keys that make App Store Connect read the app as self-hosted (ITMS-90923/90924).
    @Test func appleHostingRemovesTheSelfHostingKeys() throws {
        let fixture = try thinnable(background: "background-assets: {app-group: group.x.y}", format: .binary)
        var plist = try info(fixture).plist
        for key in ["BAManifestURL", "BAInitialDownloadRestrictions", "BAMaxInstallSize", "BAEssentialMaxInstallSize"] {
            plist[key] = "x"
        }
        try fixture.project.file(
            "Game.app/Info.plist",
            bytes: try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0))
        #expect(try fixture.run(["thin", "Game.app", "out"]).status == 0)
        let kinds = try BinaryPlistKinds.read(try fixture.data("Game.app/Info.plist"))
        for key in ["BAManifestURL", "BAInitialDownloadRestrictions", "BAMaxInstallSize", "BAEssentialMaxInstallSize"] {
            #expect(kinds[key] == nil, "\(key)")
        }
        #expect(kinds["BAHasManagedAssetPacks"] == .bool(true))
    }

    /// A macOS app: Contents/Info.plist, the extension in Contents/Extensions/, AssetPackTags.json in
    /// Contents/Resources/ (anything beside Contents/ breaks code signing).
    @Test func aMacAppGetsItsTagsInsideContents() throws {
        let fixture = try thinnable(background: "background-assets: {app-group: group.x.y}", extensionPoint: nil)
        try FileManager.default.createDirectory(
            atPath: fixture.project.path("Game.app/Contents"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            atPath: fixture.project.path("Game.app/Info.plist"),
            toPath: fixture.project.path("Game.app/Contents/Info.plist"))
        let appex: [String: Any] = [
            "NSExtension": ["NSExtensionPointIdentifier": "com.apple.background-asset-downloader-extension"]
        ]
        try fixture.project.file(
            "Game.app/Contents/Extensions/D.appex/Contents/Info.plist",
            bytes: try PropertyListSerialization.data(fromPropertyList: appex, format: .xml, options: 0))
        let output = try fixture.run(["thin", "Game.app", "out", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect((try output.json()["diagnostics"] as? [Any])?.isEmpty == true)
        #expect(
            try Self.tags(fixture.data("Game.app/Contents/Resources/AssetPackTags.json"))
                == Self.tags(fixture.data("out/BackgroundAssets/AssetPackTags.json"), droppingPlatforms: true))
        #expect(!FileManager.default.fileExists(atPath: fixture.project.path("Game.app/AssetPackTags.json")))
        let text = String(decoding: try fixture.data("Game.app/Contents/Info.plist"), as: UTF8.self)
        #expect(text.contains("<key>BAHasManagedAssetPacks</key>\n\t<true/>"))
    }

    @Test func theDownloaderExtensionInPlugInsIsAnError() throws {
        let fixture = try thinnable(background: "background-assets: {app-group: group.x.y}", extensionFolder: "PlugIns")
        let before = try appFiles(fixture)
        let output = try fixture.run(["thin", "Game.app", "out", "--json"])
        #expect(output.status == 1)
        let diagnostics = try output.json()["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.map { "\($0["severity"]!) \($0["code"]!)" } == ["error ba-extension-misplaced"])
        #expect(try appFiles(fixture) == before)
    }

    @Test func noAppGroupIsAnErrorAndTheAppIsUnchanged() throws {
        let fixture = try thinnable()
        let before = try appFiles(fixture)
        let output = try fixture.run(["thin", "Game.app", "out", "--json"])
        #expect(output.status == 1)
        let codes = try (output.json()["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(codes == ["ba-app-group-missing"])
        #expect(try appFiles(fixture) == before)
        // An app that has its group already keeps it.
        var plist = try info(fixture).plist
        plist["BAAppGroupID"] = "group.already.there"
        try fixture.project.file(
            "Game.app/Info.plist",
            bytes: try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0))
        #expect(try fixture.run(["thin", "Game.app", "out"]).status == 0)
        #expect(try info(fixture).plist["BAAppGroupID"] as? String == "group.already.there")
    }

    @Test func anAppWithoutTheDownloaderExtensionGetsAWarning() throws {
        // A real tool shipped the second one: it mentions background assets, but the system never registers it.
        for point in [nil, "com.apple.widgetkit-extension", "com.apple.background-assets.content-request"] {
            let fixture = try thinnable(background: "background-assets: {app-group: group.x.y}", extensionPoint: point)
            let output = try fixture.run(["thin", "Game.app", "out", "--json"])
            #expect(output.status == 0)
            let diagnostics = try output.json()["diagnostics"] as? [[String: Any]] ?? []
            #expect(diagnostics.map { "\($0["severity"]!) \($0["code"]!)" } == ["warning ba-extension-missing"])
            if point == "com.apple.background-assets.content-request" {
                #expect(
                    (diagnostics.first?["message"] as? String)?.contains("com.apple.background-assets.content-request")
                        == true)
            }
        }
    }

    @Test func optionsOfTheOtherFormatAreABadCommandLine() throws {
        let fixture = try thinnable(background: "background-assets: {app-group: group.x.y}")
        #expect(try fixture.run(["thin", "Game.app", "out", "--embed"]).status == 64)
        #expect(try fixture.run(["build", "-o", "odr"]).status == 0)
        #expect(try fixture.run(["thin", "Game.app", "odr", "--app-group", "group.x.y"]).status == 64)
    }
}
