import Foundation
import Testing

@testable import ODRPackCore

@Suite struct PackPlannerTests {
    /// Apple's 2016 ODR talk: four single-tag resources and two with two tags, four tags, six packs.
    @Test func appleTalkExampleMakesSixPacks() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.talk
            resources:
              - path: a.png
                tags: [Initial]
              - path: b.png
                tags: [ScreenOne]
              - path: c.png
                tags: [ScreenTwo]
              - path: d.png
                tags: [Tutorial]
              - path: e.png
                tags: [Initial, ScreenOne]
              - path: f.png
                tags: [ScreenOne, ScreenTwo]
            """)
        for name in ["a", "b", "c", "d", "e", "f"] {
            try project.file("\(name).png", String(repeating: name, count: 10))
        }
        let result = try project.plan()
        let plan = try #require(result.plan)
        #expect(result.diagnostics.isEmpty)
        #expect(plan.packs.count == 6)
        #expect(plan.tags.map(\.name) == ["Initial", "ScreenOne", "ScreenTwo", "Tutorial"])
        #expect(
            Set(plan.packs.map(\.tags)) == [
                ["Initial"], ["ScreenOne"], ["ScreenTwo"], ["Tutorial"],
                ["Initial", "ScreenOne"], ["ScreenOne", "ScreenTwo"],
            ])
        // ScreenOne downloads its own pack and the two shared ones.
        #expect(plan.tags.first { $0.name == "ScreenOne" }?.size == 30)
        #expect(plan.tags.first { $0.name == "ScreenOne" }?.packs.count == 3)
    }

    @Test func threeFilesOverTwoTagsMakeThreePacks() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.game
            resources:
              - {path: one, tags: [level1]}
              - {path: two, tags: [level2]}
              - {path: both, tags: [level1, level2]}
            """)
        try project.file("one/a.json")
        try project.file("two/b.json")
        try project.file("both/c.json")
        let plan = try #require(try project.plan().plan)
        #expect(
            plan.packs.map(\.tags).sorted { $0.joined() < $1.joined() } == [
                ["level1"], ["level1", "level2"], ["level2"],
            ])
    }

    @Test func tagsAreTheUnionOfFileFolderAndGlobEntries() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.game
            resources-root: Resources
            resources:
              - path: Levels
                tags: [levels]
              - path: Levels/Level2
                tags: [level2]
              - path: Levels/Level2/Deep/scene.json
                tags: [scene]
              - glob: "**/*.json"
                tags: [data]
              - glob: "Levels/*/Deep/*.caf"
                tags: [audio]
            """)
        try project.file("Resources/Levels/Level2/Deep/scene.json")
        try project.file("Resources/Levels/Level2/Deep/theme.caf")
        try project.file("Resources/Levels/Level1/map.png")
        try project.file("Resources/UI/menu.png")
        let result = try project.plan()
        let resources = try #require(result.resolution?.resources)
        let tags = Dictionary(uniqueKeysWithValues: resources.map { ($0.path, $0.tags) })
        #expect(tags["Levels/Level2/Deep/scene.json"] == ["data", "level2", "levels", "scene"])
        #expect(tags["Levels/Level2/Deep/theme.caf"] == ["audio", "level2", "levels"])
        #expect(tags["Levels/Level1/map.png"] == ["levels"])
        #expect(tags["UI/menu.png"] == nil)
        #expect(result.plan?.appBundleFiles == 1)
        #expect(result.diagnostics.isEmpty)
    }

    @Test func excludesAndAlwaysExcludedFilesAreNeitherPackedNorCounted() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.game
            resources: [{path: ".", tags: [all]}]
            exclude: ["**/*.psd"]
            """)
        try project.file("Art/source.psd")
        try project.file("Art/.DS_Store")
        try project.file(".git/config")
        try project.file("Art/sprite.png", "12345")
        let result = try project.plan()
        let plan = try #require(result.plan)
        // odrpack.yml itself lives in the root here and is tagged too.
        #expect(plan.packs.flatMap(\.files).map(\.path).sorted() == ["Art/sprite.png", "odrpack.yml"])
        #expect(plan.appBundleFiles == 0)
    }

    @Test func packIdentityMatchesXcode() {
        #expect(
            PackIdentity.id(bundleID: "com.example.app", tags: ["Initial", "ScreenOne", "ScreenTwo"])
                == "com.example.app.asset-pack-1577c8b949edf4c932bd84b92a3b1e5c")
        #expect(
            PackIdentity.id(bundleID: "com.example.app", tags: ["ScreenTwo"])
                == "com.example.app.asset-pack-0ac631dedcd5e44b0d8b7e90991f703f")
        // Tags are sorted before hashing: order in the manifest does not matter.
        #expect(
            PackIdentity.id(bundleID: "b.c", tags: ["ScreenTwo", "Initial", "ScreenOne"])
                == "b.c.asset-pack-1577c8b949edf4c932bd84b92a3b1e5c")
        #expect(
            PackIdentity.fileName(bundleID: "com.example.app", tags: ["level2", "level1"])
                == "com.example.app.level1+level2-\(PackIdentity.digest(tags: ["level1", "level2"])).assetpack")
    }

    @Test func longTagSetsAreCutToTwoHundredFortyBytesAtACharacterBoundary() {
        let tags = (0..<40).map { "ünïcödé-tag-\($0)" }
        let name = PackIdentity.fileName(bundleID: "com.example.app", tags: tags)
        #expect(name.utf8.count <= 240)
        #expect(name.utf8.count >= 237)
        #expect(name.hasSuffix("-\(PackIdentity.digest(tags: tags)).assetpack"))
        #expect(name.hasPrefix("com.example.app.ünïcödé-tag-0+"))
        #expect(String(validating: Array(name.utf8), as: UTF8.self) == name)
        let short = PackIdentity.fileName(bundleID: "com.example.app", tags: ["a"])
        #expect(short == "com.example.app.a-\(PackIdentity.digest(tags: ["a"])).assetpack")
    }

    @Test func priorityFollowsXcodesFormula() {
        let prefetch = ["p0", "p1", "p2", "p3", "p4"]
        let initial: Set = ["boot"]
        func priority(_ tags: [String], _ order: [String] = prefetch) -> Double? {
            PackPlanner.priority(tags: tags, initialInstall: initial, prefetchOrder: order)
        }
        #expect(priority(["boot"]) == 1.0)
        #expect(priority(["p0"]) == (4.0 / 4.0) * 0.9 + 0.05)
        #expect(abs(priority(["p0"])! - 0.95) < 1e-12)
        #expect(priority(["p4"]) == (0.0 / 4.0) * 0.9 + 0.05)
        #expect(priority(["p2"]) == (2.0 / 4.0) * 0.9 + 0.05)
        #expect(priority(["p1"]) == (3.0 / 4.0) * 0.9 + 0.05)
        #expect(priority(["p3", "p1"]) == (3.0 / 4.0) * 0.9 + 0.05)
        #expect(priority(["p4", "boot"]) == 1.0)
        #expect(priority(["only"], ["only"]) == 0.5)
        #expect(priority(["other"]) == nil)
    }

    @Test func categoriesAndCategorySizes() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.game
            resources:
              - {path: boot.bin, tags: [boot]}
              - {path: shared.bin, tags: [boot, next]}
              - {path: next.bin, tags: [next]}
              - {path: later.bin, tags: [later]}
            initial-install: [boot]
            prefetch-order: [next]
            """)
        try project.file("boot.bin", String(repeating: "b", count: 100))
        try project.file("shared.bin", String(repeating: "s", count: 1000))
        try project.file("next.bin", String(repeating: "n", count: 10))
        try project.file("later.bin", String(repeating: "l", count: 7))
        let result = try project.plan()
        let plan = try #require(result.plan)
        #expect(result.diagnostics.isEmpty)
        // The shared pack holds an initial-install and a prefetch tag: counted once.
        #expect(plan.initialInstallSize == 1100)
        #expect(plan.initialPrefetchSize == 1110)
        #expect(plan.totalSize == 1117)
        #expect(result.pack(tags: ["boot", "next"])?.category == .initialInstall)
        #expect(result.pack(tags: ["next"])?.category == .prefetch)
        #expect(result.pack(tags: ["later"])?.category == .onDemand)
        #expect(result.pack(tags: ["later"])?.priority == nil)
        #expect(plan.tags.first { $0.name == "next" }?.size == 1010)
        #expect(plan.tags.first { $0.name == "next" }?.category == .prefetch)
    }
}
