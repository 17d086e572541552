import Foundation
import Testing

@testable import ODRPackCore

/// Warnings about what a pack holds: catalogs and compiled resources (docs/diagnostics.md, 9), and names Apple's file systems
/// take for one (docs/manifest.md#destinations).
@Suite struct PackContentWarningTests {
    func plan(_ files: [String], entries: String = "  - {path: ., tags: [a]}\n") throws -> PlanResult {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.x\nresources-root: R\nresources:\n" + entries)
        for file in files { try project.file("R/" + file) }
        return try project.plan()
    }

    @Test func assetCatalogFilesWarnOncePerPackNamingTheCatalogs() throws {
        let result = try plan([
            "Assets.xcassets/Hero.imageset/Contents.json", "Assets.xcassets/Hero.imageset/hero.png",
            "More/Art.xcassets/Tree.imageset/tree.png", "plain.png",
        ])
        let warnings = result.diagnostics(.assetCatalogUncompiled)
        #expect(warnings.count == 1)
        #expect(warnings.first?.severity == .warning)
        #expect(warnings.first?.subject == "Assets.xcassets")
        #expect(warnings.first?.message.contains("'More/Art.xcassets'") == true)
        #expect(warnings.first?.message.contains("actool") == true)
        #expect(try plan(["plain.png", "xcassets.png"]).diagnostics(.assetCatalogUncompiled).isEmpty)
    }

    @Test func compiledResourcesWarnOncePerPack() throws {
        for name in [
            "Main.storyboard", "View.xib", "Sprites.atlas/a.png", "Model.xcdatamodeld/Model.xcdatamodel/contents",
            "Map.xcmappingmodel/x", "Localizable.xcstrings",
        ] {
            let result = try plan([name, "other.txt"])
            #expect(result.codes == ["resource-uncompiled"], "\(name)")
            #expect(result.diagnostics.first?.severity == .warning)
        }
        #expect(try plan(["storyboard.txt", "a.xibx"]).diagnostics.isEmpty)
    }

    @Test func namesEqualButForCaseOrNormalization() throws {
        let nfc = "caf\u{E9}.txt"
        let nfd = "cafe\u{301}.txt"
        let project = try TemporaryProject()
        try project.manifest(
            "version: 1\nbundle-id: com.example.x\nresources-root: R\nresources:\n  - {path: ., tags: [a]}\n")
        for file in [nfc, nfd, "Hero.png", "hero.png", "other.txt"] { try project.file("R/" + file) }
        let result = try project.plan()
        // A case- or normalization-insensitive volume holds only one of a pair: check what it holds.
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: project.path("R")).map { Array($0.utf8) })
        if names.contains(Array(nfc.utf8)) && names.contains(Array(nfd.utf8)) {
            let collisions = result.diagnostics(.normalizationCollision)
            #expect(collisions.count == 1)
            #expect(collisions.first?.severity == .warning)
            // Paths are bytes everywhere: both files are resources.
            #expect(
                result.resolution?.resources.filter {
                    Array($0.path.utf8) == Array(nfc.utf8) || Array($0.path.utf8) == Array(nfd.utf8)
                }.count == 2)
        }
        if names.contains(Array("Hero.png".utf8)) && names.contains(Array("hero.png".utf8)) {
            #expect(result.diagnostics(.caseCollision).count == 1)
            #expect(result.diagnostics(.caseCollision).first?.message.contains("'Hero.png' and 'hero.png'") == true)
        }
    }
}
