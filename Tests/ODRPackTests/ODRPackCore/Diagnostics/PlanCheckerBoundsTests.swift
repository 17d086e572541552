import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackCore

/// The plan checks that keep a build from writing what it cannot (docs/build-output.md, Bounded): sums past
/// Int64.max, Info.plists past 1 MiB, and checks that stay n log n on manifests of tens of thousands of entries.
@Suite struct PlanCheckerBoundsTests {
    static let maximum = Int64.max

    func resource(_ path: String, _ size: Int64, _ tags: [String], entry: Int? = nil) -> ResolvedResource {
        ResolvedResource(
            path: path, size: size,
            stamp: FileStamp(size: size, modificationNanoseconds: 0, changeNanoseconds: 0, inode: 0, device: 0),
            tags: tags.sorted(), firstEntry: entry)
    }

    func manifest(entries: [TagManifest.Entry] = [], initial: [String] = []) -> TagManifest {
        TagManifest(
            displayPath: "odrpack.yml", directory: FilePath("/tmp"), bundleID: "com.example.bounds",
            entries: entries, initialInstall: initial.map { .init($0, at: nil) })
    }

    func plan(_ resources: [ResolvedResource], manifest: TagManifest, format: PackFormat = .odr) -> PackPlan {
        let resolution = Resolution(
            rootPath: "/tmp", resources: resources, appBundleFiles: 0, appBundleSize: 0, diagnostics: [])
        return PackPlanner(manifest: manifest, limits: manifest.limits(format: format)!, format: format).plan(
            resolution)
    }

    func check(_ resources: [ResolvedResource], manifest: TagManifest? = nil, format: PackFormat = .odr)
        -> [Diagnostic]
    {
        let manifest = manifest ?? self.manifest()
        return PlanChecker(manifest: manifest, plan: plan(resources, manifest: manifest, format: format)).check()
    }

    /// Three files of 2^63-1 bytes: each pack fits, their total does not; in one pack, the pack's sum does not.
    @Test func sumsPastInt64AreSizeOverflowErrorsNeverATrap() {
        let apart = check([
            resource("a.bin", Self.maximum, ["a"]), resource("b.bin", Self.maximum, ["b"]),
            resource("c.bin", Self.maximum, ["c"]),
        ])
        let overflows = apart.filter { $0.code == .sizeOverflow }
        #expect(overflows.allSatisfy { $0.severity == .error })
        #expect(overflows.contains { $0.message.contains("all packs together") })
        // Each pack of one such file: with its Info.plist, the ZipMetadata's total would not fit either.
        #expect(overflows.filter { $0.subject?.hasPrefix("com.example.bounds.asset-pack-") == true }.count == 3)

        let together = check([
            resource("a.bin", Self.maximum, ["a"]), resource("b.bin", Self.maximum, ["a"]),
            resource("c.bin", Self.maximum, ["a"]),
        ])
        #expect(together.contains { $0.code == .sizeOverflow && $0.message.contains("the files of pack 'a'") })
        #expect(together.filter { $0.code == .sizeOverflow }.count == 1)

        // At the boundary: a pack whose files and Info.plist fit is no overflow.
        let fits = check([resource("a.bin", Self.maximum - 10_000, ["a"])])
        #expect(!fits.contains { $0.code == .sizeOverflow })
        // Background Assets packs have no Info.plist: only sums count.
        let background = check([resource("a.bin", Self.maximum, ["a"])], format: .backgroundAssets)
        #expect(!background.contains { $0.code == .sizeOverflow })
    }

    /// The Info.plist `verify` would refuse (over 1 MiB) is an error before anything is written; its size is the
    /// binary plist the build writes, byte for byte.
    @Test func anInfoPlistOverOneMiBIsPackInfoTooLarge() {
        let huge = String(repeating: "t", count: PackInfo.maximumSize)
        let diagnostics = check([resource("a.bin", 1, [huge])])
        let found = diagnostics.filter { $0.code == .packInfoTooLarge }
        #expect(found.count == 1)
        #expect(found.first?.severity == .error)

        let many = (0..<40_000).map { "tag-\($0)-with-a-longer-name" }
        #expect(check([resource("a.bin", 1, many)]).contains { $0.code == .packInfoTooLarge })

        // Exactly: a tag that makes the plist 1 MiB passes, one byte more fails.
        let id = PackIdentity.id(bundleID: "com.example.bounds", tags: ["x"])
        let base = PackInfo.propertyList(id: id, tags: ["x"], priority: nil).binaryData().count
        #expect(base < 200)
        // The bound the check uses before it serializes is never below the exact size.
        for tags in [
            ["x"], ["caf\u{E9}", "\u{1F600}"], (0..<300).map { "t\($0)" },
            [String(repeating: "\u{4E2D}", count: 5_000)],
        ] {
            let pack = AssetPack(
                id: PackIdentity.id(bundleID: "com.example.bounds", tags: tags),
                fileName: "f", tags: tags, category: .prefetch, priority: 0.5, size: 0, files: [])
            #expect(PackInfo.sizeBound(of: pack) >= PackInfo.size(of: pack), "\(tags.count) tags")
        }
        func size(_ tag: String) -> Int {
            PackInfo.propertyList(
                id: PackIdentity.id(bundleID: "com.example.bounds", tags: [tag]), tags: [tag], priority: nil
            ).binaryData().count
        }
        // The longest tag whose plist fits, found by bisection (the size grows with the tag).
        var low = 0
        var high = PackInfo.maximumSize
        while low < high {
            let middle = (low + high + 1) / 2
            if size(String(repeating: "y", count: middle)) <= PackInfo.maximumSize {
                low = middle
            } else {
                high = middle - 1
            }
        }
        let atLimit = String(repeating: "y", count: low)
        #expect(size(atLimit) <= PackInfo.maximumSize)
        #expect(!check([resource("a.bin", 1, [atLimit])]).contains { $0.code == .packInfoTooLarge })
        #expect(check([resource("a.bin", 1, [atLimit + "y"])]).contains { $0.code == .packInfoTooLarge })
        // Background Assets packs have no Info.plist.
        #expect(
            !check([resource("a.bin", 1, [huge])], format: .backgroundAssets).contains { $0.code == .packInfoTooLarge })
    }

    /// 40,000 one-tag entries: finding each tag's place in the manifest was O(tags x entries) (ten seconds in
    /// release, minutes in debug); now one pass (about 3 s in debug alone). The time limit is a hang guard, not a
    /// measurement: a wall-clock bound would fail on a loaded machine, and one minute did, once, with the whole suite
    /// and another's builds on two cores.
    @Test(.timeLimit(.minutes(2))) func fortyThousandTagsAreCheckedInNLogN() {
        let count = 40_000
        let entries = (0..<count).map { index in
            TagManifest.Entry(
                selector: .path("f\(index)"),
                selectorLocation: SourceLocation(file: "odrpack.yml", line: index + 4, column: 5),
                tags: [
                    .init("tag\(index)", at: SourceLocation(file: "odrpack.yml", line: index + 4, column: 20)),
                    .init("all", at: SourceLocation(file: "odrpack.yml", line: index + 4, column: 28)),
                ])
        }
        // Two tags a pack: a tag that is one pack would have only the pack's warning.
        let resources = (0..<count).map { resource("f\($0)", 1_000_000, ["all", "tag\($0)"], entry: $0) }
        var limited = manifest(entries: entries)
        limited.limitOverrides = [.recommendedSize: 1, .maxPackCount: nil]
        let plan = plan(resources, manifest: limited)
        let checker = PlanChecker(manifest: limited, plan: plan)
        let diagnostics = checker.check()
        let tagWarnings = diagnostics.filter { $0.code == .overRecommendedSize && $0.subject == "tag39999" }
        #expect(tagWarnings.first?.location?.line == 40_003)
    }

    /// Of the largest files, the first in code-point (byte) order is named: the decomposed `e\u{301}x.mov` (0x65)
    /// before the composed `\u{E9}.mov` (0xC3), which Swift's canonical `<` would put first.
    @Test func theLargestFileOfATieIsTheFirstByBytes() {
        let composed = "\u{E9}.mov"
        let decomposed = "e\u{301}x.mov"
        // A second pack of the tag: a tag that is one pack has only the pack's diagnostic.
        let big = check([
            resource(composed, 600_000_000, ["intro"]), resource(decomposed, 600_000_000, ["intro"]),
            resource("x.txt", 10, ["intro", "extra"]),
        ])
        func names(_ path: String, _ code: DiagnosticCode) -> Bool {
            let message = big.first { $0.code == code }?.message ?? ""
            return Data(message.utf8).range(of: Data("its file '\(path)' alone is".utf8)) != nil
        }
        #expect(names(decomposed, .packTooLarge) && !names(composed, .packTooLarge))
        #expect(names(decomposed, .tagTooLarge) && !names(composed, .tagTooLarge))
    }

    /// One file over the pack limit: no split into tags can help, and ios18 takes 8 GB packs.
    @Test func aPackOverTheLimitBecauseOfOneFileSaysSo() {
        let big = check([
            resource("Movies/intro.mov", 600_000_000, ["intro"]), resource("x.txt", 10, ["intro", "extra"]),
        ])
        let pack = big.first { $0.code == .packTooLarge }
        #expect(pack?.message.contains("its file 'Movies/intro.mov' alone is 600 MB, over the 512 MB limit") == true)
        #expect(pack?.message.contains("no split into more tags can help") == true)
        #expect(pack?.message.contains("profile 'ios18' (8 GB limit") == true)
        #expect(pack?.message.contains("split its files across more tags") == false)
        let tag = big.first { $0.code == .tagTooLarge }
        #expect(tag?.message.contains("alone is 600 MB") == true)
        #expect(tag?.message.contains("profile 'ios18'") == true)

        // Over even ios18's limit: no profile is named.
        let huge = check([resource("huge.bin", 9_000_000_000, ["huge"])])
        #expect(huge.first { $0.code == .packTooLarge }?.message.contains("profile") == false)

        // Many small files: splitting is the fix.
        let many = check((0..<6).map { resource("f\($0)", 100_000_000, ["many"]) })
        #expect(many.first { $0.code == .packTooLarge }?.message.contains("split its files across more tags") == true)

        // A limit the manifest sets applies under every profile: the fix is the manifest's limits, never a profile
        // (and never the profile in use).
        var limited = manifest()
        limited.limitOverrides = [.maxPackSize: 1000]
        let overridden = check([resource("big.bin", 2000, ["big"])], manifest: limited)
        let message = overridden.first { $0.code == .packTooLarge }?.message ?? ""
        #expect(message.hasSuffix(", or raise 'max-pack-size' in the manifest's limits"), "\(message)")
        #expect(!message.contains("profile"))
    }
}
