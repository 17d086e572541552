import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackCore

/// docs/diagnostics.md#tag-similar and #tag-undeclared: the tag checks stay n log n on manifests built to make them
/// quadratic (every tag sharing its first third; thousands of undeclared uses), and still find the planted twin. Each
/// size here took minutes before (227 s and 43 s in release); a quadratic check would take far longer than the bound.
@Suite struct TagCheckScaleTests {
    /// `count` tags of 30 letters that share their first 10 (`sharedpart`), from a fixed seed.
    static func crowd(_ count: Int, seed: UInt64 = 53) -> [String] {
        var random = SplitMix64(state: seed)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return (0..<count).map { _ in
            "sharedpart" + String((0..<20).map { _ in letters[Int(random.next() % 26)] })
        }
    }

    static func check(_ text: String) -> [Diagnostic] {
        let result = ManifestLoader().parse(data: Data(text.utf8), displayPath: "odrpack.yml", directory: "/tmp")
        guard let manifest = result.manifest else { return result.diagnostics }
        return TagSpellingCheck(manifest: manifest).check()
    }

    static func entries(_ tags: [String]) -> String {
        tags.enumerated().map { "  - {path: P\($0.offset), tags: [\($0.element)]}\n" }.joined()
    }

    /// 4,000 tags sharing their first third, and one misspelling of a tag two entries give: that one warning, fast.
    @Test(arguments: [2000, 4000])
    func tagsSharingTheirFirstThird(count: Int) throws {
        let twin = "sharedpartqqqqqqqqqqwwwwwwwwww"
        let typo = "sharedpartqqqqqqqqqqwwwwwwwwxw"
        let text =
            "version: 1\nbundle-id: com.example.x\nresources:\n"
            + Self.entries(Self.crowd(count) + [twin, twin, typo])
        let started = Date()
        let diagnostics = Self.check(text)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(diagnostics.map(\.code) == [.tagSimilar])
        #expect(diagnostics.first?.subject == typo)
    }

    /// 4,000 declared tags, 4,000 distinct undeclared ones and 4,000 uses of one more: every use reported, the
    /// closest declared tag still named for a near twin, fast.
    @Test func thousandsOfUndeclaredUses() throws {
        let declared = Self.crowd(4000, seed: 1)
        let undeclared = Self.crowd(4000, seed: 2)
        let near = String(declared[17].dropLast()) + "z"
        var text =
            "version: 1\nbundle-id: com.example.x\ntags: [" + declared.joined(separator: ", ") + "]\nresources:\n"
        text += Self.entries(declared + undeclared + Array(repeating: "onemore", count: 4000) + [near])
        let started = Date()
        let diagnostics = Self.check(text)
        #expect(Date().timeIntervalSince(started) < 10)
        let errors = diagnostics.filter { $0.code == .tagUndeclared }
        #expect(errors.count == 8001)
        #expect(diagnostics.count == errors.count)
        let hint = errors.first { $0.subject == near }?.message
        #expect(hint?.contains("did you mean '\(declared[17])'?") == true, "\(hint ?? "")")
    }

    /// 40,000 tags: the whole check in seconds.
    @Test func fortyThousandTags() throws {
        var random = SplitMix64(state: 40)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let tags = (0..<40_000).map { _ in String((0..<12).map { _ in letters[Int(random.next() % 26)] }) }
        let text = "version: 1\nbundle-id: com.example.x\nresources:\n" + Self.entries(tags)
        let started = Date()
        _ = Self.check(text)
        #expect(Date().timeIntervalSince(started) < 30)
    }
}
