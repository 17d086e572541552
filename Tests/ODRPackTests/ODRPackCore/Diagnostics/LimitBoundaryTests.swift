import Foundation
import Testing

@testable import ODRPackCore

/// Every limit at its boundary: exactly at the limit passes, one byte over fails. Sizes come from sparse files.
@Suite struct LimitBoundaryTests {
    static let MB: Int64 = 1_000_000
    static let GB: Int64 = 1_000_000_000

    func project(
        profile: String, files: [(path: String, size: Int64, tags: [String])],
        initial: [String] = [], prefetch: [String] = [], limits: String = ""
    ) throws -> PlanResult {
        let project = try TemporaryProject()
        var yaml = "version: 1\nbundle-id: com.example.big\nresources-root: R\nprofile: \(profile)\nresources:\n"
        for file in files {
            yaml += "  - path: \(file.path)\n    tags: [\(file.tags.joined(separator: ", "))]\n"
            try project.sparseFile("R/" + file.path, size: file.size)
        }
        yaml +=
            "initial-install: [\(initial.joined(separator: ", "))]\nprefetch-order: [\(prefetch.joined(separator: ", "))]\n"
        yaml += limits
        try project.manifest(yaml)
        return try project.plan()
    }

    /// docs/manifest.md#limits's and 12's tables, number by number (nil: no limit).
    @Test func everyProfileHasTheSpecNumbers() {
        let table: [String: [Int64?]] = [
            // max-pack-size, max-tag-size, recommended-size, max-pack-count, max-initial-install-size, max-initial-prefetch-size, max-total-size
            "default": [512 * Self.MB, 512 * Self.MB, 64 * Self.MB, 1000, nil, 2 * Self.GB, 20 * Self.GB],
            "ios": [512 * Self.MB, 512 * Self.MB, 64 * Self.MB, 1000, 2 * Self.GB, 4 * Self.GB, 20 * Self.GB],
            "ios18": [8 * Self.GB, 8 * Self.GB, 64 * Self.MB, 1000, nil, nil, 70 * Self.GB],
            "tvos": [512 * Self.MB, 512 * Self.MB, 64 * Self.MB, 1000, 2 * Self.GB, 4 * Self.GB, 20 * Self.GB],
            // docs/background-assets.md: App Store Connect's 100 asset pack ids and 200 GB; every other limit none.
            "background-assets": [nil, nil, nil, 100, nil, nil, 200 * Self.GB],
        ]
        let keys: [LimitProfile.Key] = [
            .maxPackSize, .maxTagSize, .recommendedSize, .maxPackCount, .maxInitialInstallSize,
            .maxInitialPrefetchSize, .maxTotalSize,
        ]
        #expect(Set(LimitProfile.names) == Set(table.keys))
        for (name, values) in table {
            let profile = LimitProfile.named(name)
            #expect(keys.map { profile?[$0] } == values, "\(name)")
        }
    }

    @Test(arguments: [("default", 512 * MB), ("ios", 512 * MB), ("tvos", 512 * MB), ("ios18", 8 * GB)])
    func maxPackSize(profile: String, limit: Int64) throws {
        let at = try project(profile: profile, files: [("pack.bin", limit, ["a"])])
        #expect(at.diagnostics(.packTooLarge).isEmpty)
        #expect(at.diagnostics(.tagTooLarge).isEmpty)
        let over = try project(profile: profile, files: [("pack.bin", limit + 1, ["a"])])
        let diagnostic = try #require(over.diagnostics(.packTooLarge).first)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.subject == PackIdentity.id(bundleID: "com.example.big", tags: ["a"]))
        #expect(diagnostic.location?.line == 6)
        // The pack is its one tag's only pack: one diagnostic names both (docs/diagnostics.md).
        #expect(diagnostic.message.hasPrefix("pack and tag 'a' is "))
        #expect(over.diagnostics(.tagTooLarge).isEmpty)
    }

    @Test func maxTagSizeSumsEveryPackOfTheTag() throws {
        // Tag "a" spans two packs of 256 MB each: exactly 512 MB in all.
        let half = 256 * Self.MB
        let at = try project(profile: "default", files: [("x.bin", half, ["a"]), ("y.bin", half, ["a", "b"])])
        #expect(at.diagnostics(.tagTooLarge).isEmpty)
        #expect(at.plan?.tags.first { $0.name == "a" }?.size == 512 * Self.MB)
        let over = try project(profile: "default", files: [("x.bin", half, ["a"]), ("y.bin", half + 1, ["a", "b"])])
        #expect(over.diagnostics(.tagTooLarge).map(\.subject) == ["a"])
        #expect(over.diagnostics(.packTooLarge).isEmpty)
    }

    @Test func recommendedSizeIsAWarning() throws {
        let at = try project(profile: "default", files: [("x.bin", 64 * Self.MB, ["a"])])
        #expect(at.diagnostics.isEmpty)
        let over = try project(profile: "default", files: [("x.bin", 64 * Self.MB + 1, ["a"])])
        // The pack and the tag are the same bytes: one warning names both.
        #expect(
            over.diagnostics(.overRecommendedSize).map(\.message) == [
                """
                pack and tag 'a' is 64 MB (64000001 bytes), over the 64 MB (64000000 bytes) recommended size: smaller \
                packs download sooner; allow it: allow: [over-recommended-size]
                """
            ])
        #expect(over.diagnostics.allSatisfy { $0.severity == .warning })
    }

    @Test func initialInstallSizeWithTheIOSProfile() throws {
        let files = (0..<4).map { ("i\($0).bin", 500 * Self.MB, ["i\($0)"]) }
        let at = try project(profile: "ios", files: files, initial: ["i0", "i1", "i2", "i3"])
        #expect(at.plan?.initialInstallSize == 2 * Self.GB)
        #expect(at.diagnostics(.initialInstallTooLarge).isEmpty)
        var overFiles = files
        overFiles[3].1 += 1
        let over = try project(profile: "ios", files: overFiles, initial: ["i0", "i1", "i2", "i3"])
        #expect(over.diagnostics(.initialInstallTooLarge).count == 1)
        // The default profile has no initial-install limit of its own, only the shared 2 GB budget.
        let defaults = try project(profile: "default", files: overFiles, initial: ["i0", "i1", "i2", "i3"])
        #expect(defaults.diagnostics(.initialInstallTooLarge).isEmpty)
        #expect(defaults.diagnostics(.initialPrefetchTooLarge).count == 1)
    }

    @Test func initialPrefetchSizeCountsASharedPackOnce() throws {
        // 1.5 GB initial + 0.5 GB prefetch, with a 500 MB pack shared by both: 2 GB exactly when counted once.
        let files: [(String, Int64, [String])] = [
            ("a.bin", 500 * Self.MB, ["init"]), ("b.bin", 500 * Self.MB, ["init"]),
            ("shared.bin", 500 * Self.MB, ["init", "pre"]), ("c.bin", 500 * Self.MB, ["pre"]),
        ]
        let at = try project(
            profile: "default", files: files, initial: ["init"], prefetch: ["pre"],
            limits: "limits:\n  max-tag-size: 2GB\n  max-pack-size: 2GB\n")
        #expect(at.plan?.initialPrefetchSize == 2 * Self.GB)
        #expect(at.diagnostics(.initialPrefetchTooLarge).isEmpty)
        var overFiles = files
        overFiles[3].1 += 1
        let over = try project(
            profile: "default", files: overFiles, initial: ["init"], prefetch: ["pre"],
            limits: "limits:\n  max-tag-size: 2GB\n  max-pack-size: 2GB\n")
        #expect(over.diagnostics(.initialPrefetchTooLarge).count == 1)
    }

    @Test func totalSize() throws {
        let files = (0..<40).map { ("t\($0).bin", 500 * Self.MB, ["t\($0)"]) }
        let at = try project(profile: "default", files: files)
        #expect(at.plan?.totalSize == 20 * Self.GB)
        #expect(at.diagnostics(.totalTooLarge).isEmpty)
        var overFiles = files
        overFiles[0].1 += 1
        let over = try project(profile: "default", files: overFiles)
        #expect(over.diagnostics(.totalTooLarge).count == 1)
    }

    @Test func packCount() throws {
        let at = try project(profile: "default", files: (0..<1000).map { ("f\($0)", 1, ["t\($0)"]) })
        #expect(at.plan?.packs.count == 1000)
        #expect(at.diagnostics.isEmpty)
        var files = (0..<1000).map { ("f\($0)", Int64(1), ["t\($0)"]) }
        files.append(("multi", 1, ["t1", "t2", "t3"]))
        let over = try project(profile: "default", files: files)
        #expect(over.plan?.packs.count == 1001)
        let diagnostic = try #require(over.diagnostics(.tooManyPacks).first)
        #expect(diagnostic.message.contains("'multi' (3 tags)"))
    }

    @Test func overridesUseUnitsAndCanTurnALimitOff() throws {
        let at = try project(
            profile: "default", files: [("x.bin", 1024, ["a"])],
            limits: "limits:\n  max-pack-size: 1KiB\n  max-total-size: none\n")
        #expect(at.diagnostics.isEmpty)
        let over = try project(
            profile: "default", files: [("x.bin", 1025, ["a"])],
            limits: "limits:\n  max-pack-size: 1KiB\n")
        #expect(over.diagnostics(.packTooLarge).count == 1)
        #expect(
            over.diagnostics(.packTooLarge).first?.message.contains(
                "1 KB (1025 bytes), over the 1 KB (1024 bytes) limit") == true)
    }
}
