import Foundation
import Testing

@testable import ODRPackCore

/// docs/background-assets.md for `plan`, `validate` and `report --format background-assets`, and the manifest's section.
@Suite struct BackgroundAssetsPlanTests {
    @Test func assetPackIDsFollowTheSpec() {
        #expect(
            BackgroundAssetsIdentity.assetPackID(tags: ["level 2", "shared_ui"])
                == expectedAssetPackID(["level 2", "shared_ui"]))
        #expect(BackgroundAssetsIdentity.assetPackID(tags: ["level 2", "shared_ui"]).hasPrefix("level-2-shared-ui-"))
        // The spec's own example, whole: tags joined with '-', then '-' and 8 hex digits of the pack's md5.
        #expect(
            BackgroundAssetsIdentity.assetPackID(tags: ["shared_ui", "level 2"]).wholeMatch(
                of: /level-2-shared-ui-[0-9a-f]{8}/) != nil)
        #expect(BackgroundAssetsIdentity.assetPackID(tags: ["__"]).hasPrefix("tag-"))
        #expect(BackgroundAssetsIdentity.assetPackID(tags: ["héllo  wörld!"]).hasPrefix("h-llo-w-rld-"))
        // Cut at 50, then the trailing '-' goes: 49 letters remain.
        let long = String(repeating: "a", count: 49) + "_b"
        let id = BackgroundAssetsIdentity.assetPackID(tags: [long])
        #expect(id == String(repeating: "a", count: 49) + "-" + expectedAssetPackID([long]).suffix(8))
        // A '-' joining two tags at the cut goes too.
        let tags = [String(repeating: "b", count: 50), "a"]
        #expect(
            BackgroundAssetsIdentity.assetPackID(tags: tags) == "a-" + String(repeating: "b", count: 48) + "-"
                + expectedAssetPackID(tags).suffix(8))
        let cutAtJoin = [String(repeating: "c", count: 49), "a", "d"]
        #expect(
            BackgroundAssetsIdentity.assetPackID(tags: cutAtJoin).hasPrefix(
                "a-" + String(repeating: "c", count: 48) + "-"))
        for tags in [["x"], ["Ω"], [String(repeating: "é-", count: 80)], (1...40).map { "tag\($0)" }] {
            let id = BackgroundAssetsIdentity.assetPackID(tags: tags)
            #expect(id == expectedAssetPackID(tags))
            #expect(id.count <= 59)
            #expect(
                id.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
                })
        }
    }

    @Test func planJSONGivesIDsPoliciesAndTheBackgroundAssetsProfile() throws {
        let fixture = try BackgroundAssetsFixture(
            background: """
                background-assets:
                  events: [subsequentUpdate]
                  app-group: group.com.example.bamboo
                """)
        let output = try fixture.run(["plan", "--format", "background-assets", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try output.json()
        #expect(document["format"] as? String == "background-assets")
        #expect(document["profile"] as? String == "background-assets")
        let limits = try #require(document["limits"] as? [String: Any])
        #expect(limits["max-pack-count"] as? Int == 100)
        #expect(limits["max-total-size"] as? Int == 200_000_000_000)
        for key in [
            "max-pack-size", "max-tag-size", "recommended-size", "max-initial-install-size",
            "max-initial-prefetch-size",
        ] {
            #expect(limits[key] is NSNull, "\(key)")
        }
        let settings = try #require(document["backgroundAssets"] as? [String: Any])
        #expect(settings["hosting"] as? String == "apple")
        #expect(settings["platforms"] as? [String] == ["iOS"])
        #expect(settings["events"] as? [String] == ["subsequentUpdate"])
        #expect(settings["appGroup"] as? String == "group.com.example.bamboo")
        #expect(settings["urlPrefix"] is NSNull)
        let packs = try #require(document["packs"] as? [[String: Any]])
        #expect(packs.count == 4)
        for pack in packs {
            let tags = try #require(pack["tags"] as? [String])
            let id = expectedAssetPackID(tags)
            #expect(pack["assetPackId"] as? String == id)
            #expect(pack["file"] as? String == "BackgroundAssets/\(id).aar")
            let policy = try #require(pack["downloadPolicy"] as? [String: Any])
            switch pack["category"] as? String {
            case "initial-install":
                #expect(
                    (policy["essential"] as? [String: Any])?["installationEventTypes"] as? [String] == [
                        "subsequentUpdate"
                    ])
            case "prefetch":
                #expect(
                    (policy["prefetch"] as? [String: Any])?["installationEventTypes"] as? [String] == [
                        "subsequentUpdate"
                    ])
            default: #expect((policy["onDemand"] as? [String: Any])?.isEmpty == true)
            }
            #expect(policy.count == 1)
        }
        // ODR plans say their format and have none of this.
        let odr = try fixture.run(["plan", "--json"]).json()
        #expect(odr["format"] as? String == "odr")
        #expect(odr["backgroundAssets"] == nil)
        #expect(
            (odr["packs"] as? [[String: Any]])?.allSatisfy { $0["assetPackId"] == nil && $0["downloadPolicy"] == nil }
                == true)
    }

    @Test func profilesAndPlatforms() throws {
        // The manifest's limits still apply; --profile replaces the background-assets profile; tvos means tvOS.
        let fixture = try BackgroundAssetsFixture(manifest: "profile: tvos\nlimits: {max-pack-count: 3}")
        let document = try fixture.run(["plan", "--format", "background-assets", "--json"]).json()
        #expect((document["limits"] as? [String: Any])?["max-pack-count"] as? Int == 3)
        #expect((document["backgroundAssets"] as? [String: Any])?["platforms"] as? [String] == ["tvOS"])
        #expect(
            (document["diagnostics"] as? [[String: Any]])?.compactMap { $0["code"] as? String } == ["too-many-packs"])
        let ios = try fixture.run(["plan", "--format", "background-assets", "--profile", "ios", "--json"]).json()
        #expect(ios["profile"] as? String == "ios")
        #expect((ios["limits"] as? [String: Any])?["max-pack-size"] as? Int == 512_000_000)
        #expect((ios["backgroundAssets"] as? [String: Any])?["platforms"] as? [String] == ["iOS"])
        let written = try BackgroundAssetsFixture(background: "background-assets: {platforms: [visionOS, macOS]}")
        let platforms = try written.run(["plan", "--format", "background-assets", "--json"]).json()
        #expect((platforms["backgroundAssets"] as? [String: Any])?["platforms"] as? [String] == ["visionOS", "macOS"])
    }

    /// 100 packs pass, 101 are too many; per-pack sizes have no limit.
    @Test func packCountLimitAtTheBoundary() throws {
        for count in [100, 101] {
            let project = try TemporaryProject()
            try project.manifest(
                "version: 1\nbundle-id: com.example.many\nresources:\n  - {glob: \"*.bin\", tags: [all]}\n"
                    + (0..<(count - 1)).map { "  - {path: f\($0).bin, tags: [t\($0)]}\n" }.joined())
            for index in 0..<(count - 1) { try project.file("f\(index).bin", "x") }
            try project.sparseFile("big.bin", size: 9_000_000_000)
            let output = try CommandRunner.run(
                ["validate", "--format", "background-assets", "--json"], in: project.root)
            let codes = try (output.json()["diagnostics"] as? [[String: Any]] ?? []).compactMap {
                $0["code"] as? String
            }
            #expect(codes == (count == 100 ? [] : ["too-many-packs"]), "\(count)")
            #expect(output.status == (count == 100 ? 0 : 1))
        }
    }

    @Test func planTextShowsIDsPoliciesAndThePrefetchOrderNote() throws {
        let fixture = try BackgroundAssetsFixture()
        let output = try fixture.run(["plan", "--format", "background-assets"])
        #expect(output.status == 0)
        for tags in [["level1"], ["level 2"], ["level 2", "level1"], ["shared_ui"]] {
            #expect(output.stdout.contains(expectedAssetPackID(tags)))
        }
        #expect(output.stdout.contains("essential (firstInstallation, subsequentUpdate)"))
        #expect(output.stdout.contains("prefetch (firstInstallation, subsequentUpdate)"))
        #expect(output.stdout.components(separatedBy: "no prefetch order").count == 2)
        #expect(!output.stderr.contains("prefetch order"))
        // One prefetch tag: nothing to lose, no note; and ODR plans never say it.
        let single = try BackgroundAssetsFixture(manifest: "")
        try single.project.manifest(
            try single.text("odrpack.yml").replacingOccurrences(
                of: "prefetch-order: [level 2, shared_ui]", with: "prefetch-order: [level 2]"))
        #expect(!(try single.run(["plan", "--format", "background-assets"]).stdout.contains("prefetch order")))
        #expect(!(try fixture.run(["plan"]).stdout.contains("prefetch order")))
    }

    @Test func theSectionIsCheckedLikeTheRestOfTheManifest() throws {
        let cases: [(String, String, String)] = [
            ("background-assets:\n  hostng: self", "manifest-unknown-key", "did you mean 'hosting'"),
            ("background-assets:\n  hosting: selff", "manifest-invalid-value", "did you mean 'self'"),
            ("background-assets:\n  platforms: [ios]", "manifest-invalid-value", "did you mean 'iOS'"),
            ("background-assets:\n  platforms: []", "manifest-invalid-value", "'platforms' is empty"),
            ("background-assets:\n  platforms: iOS", "manifest-syntax", "must be a list"),
            ("background-assets:\n  events: []", "manifest-invalid-value", "'events' is empty"),
            (
                "background-assets:\n  events: [firstInstall]", "manifest-invalid-value",
                "did you mean 'firstInstallation'"
            ),
            (
                "background-assets:\n  events: [subsequentUpdate, subsequentUpdate]", "manifest-invalid-value",
                "listed twice"
            ),
            ("background-assets:\n  app-group: [a]", "manifest-syntax", "'app-group' must be a string"),
            ("background-assets: [apple]", "manifest-syntax", "must be a mapping"),
        ]
        for (section, code, words) in cases {
            let project = try TemporaryProject()
            try project.manifest("version: 1\nbundle-id: com.example.bad\n\(section)\n")
            let output = try CommandRunner.run(["validate", "--format", "background-assets"], in: project.root)
            #expect(output.status == 1, "\(section)")
            #expect(
                output.stderr.contains("[\(code)]") && output.stderr.contains(words), "\(section): \(output.stderr)")
            #expect(
                output.stderr.hasPrefix("odrpack.yml:3:") || output.stderr.hasPrefix("odrpack.yml:4:"),
                "\(output.stderr)")
            // An ODR plan reads the same manifest: the section is checked whatever the format.
            #expect(try CommandRunner.run(["validate"], in: project.root).status == 1)
        }
    }

    @Test func reportTakesTheFormat() throws {
        let fixture = try BackgroundAssetsFixture()
        let output = try fixture.run(["report", "--format", "background-assets", "--output", "page.html"])
        #expect(output.status == 0, "\(output.stderr)")
        let page = try fixture.text("page.html")
        #expect(page.contains("background-assets"))
        #expect(try fixture.run(["report", "--format", "zip"]).status == 64)
    }
}
