import Foundation
import Testing

@testable import ODRPackCore

/// docs/manifest.md's rules that keep a manifest's mistakes to one message each: tags in several languages are no
/// misspelling, a misspelt key is one error, and a name typed in another Unicode normalization says so.
@Suite struct ManifestRulesTests {
    /// `P-L1` and `P-L2` are one tag per language (BCP 47: language, optional script, optional region), never
    /// `tag-similar`; a misspelt prefix or one language in two spellings still is.
    @Test func tagsInTwoLanguagesAreNotSimilar() {
        for (a, b) in [
            ("voice-fr", "voice-en"), ("voice_pt-BR", "voice-fr"), ("voice-es-419", "voice-es"),
            ("voice-zh-Hant", "voice-zh"), ("intro-movie-en", "intro-movie-de"), ("voice_fr", "voice-en"),
        ] {
            #expect(TagSpellingCheck.areLanguageVariants(a, b), "\(a) \(b)")
            #expect(!TagSpellingCheck.areTwins(a, b), "\(a) \(b)")
        }
        for (a, b) in [
            ("vocie-fr", "voice-fr"), ("voice-fr", "voice-FR"), ("voice-fr", "voice_fr"), ("wrold3", "world3"),
        ] {
            #expect(!TagSpellingCheck.areLanguageVariants(a, b), "\(a) \(b)")
            #expect(TagSpellingCheck.areTwins(a, b), "\(a) \(b)")
        }
    }

    /// A pack that is its one tag's only pack is the tag's bytes: one size diagnostic, the pack's, or the tag's limit's
    /// when only that is passed; a tag of two packs keeps its own.
    @Test func aTagThatIsOnePackHasOneSizeDiagnostic() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.size
            limits: {max-pack-size: 100B, max-tag-size: 10B}
            resources:
              - {path: A, tags: [a]}
              - {path: B, tags: [b]}
              - {path: C, tags: [b, c]}
            """)
        try project.file("A/x.bin", String(repeating: "a", count: 20))
        try project.file("B/x.bin", String(repeating: "b", count: 6))
        try project.file("C/x.bin", String(repeating: "c", count: 6))
        let result = try project.plan()
        #expect(
            result.diagnostics.map { "\($0.code.rawValue) \($0.subject ?? "")" } == [
                "tag-too-large a", "tag-too-large b",
            ])
        #expect(
            result.diagnostics.first?.message
                == """
                pack and tag 'a' is 20 B, over the 10 B tag limit: its file 'A/x.bin' alone is 20 B, over the 10 B \
                limit, so no split into more tags can help: make that file smaller or split it into several files, or \
                raise 'max-tag-size' in the manifest's limits
                """)
        #expect(result.diagnostics.last?.message.hasPrefix("tag 'b' is 12 B, over the 10 B limit (2 packs)") == true)
    }

    /// A key with a did-you-mean is one error: `tag:` is not also a missing `tags`, `versoin:` a missing `version`.
    @Test func aMisspeltKeyIsOneError() {
        let (manifest, diagnostics) = ManifestLoader().parse(
            data: Data(
                """
                versoin: 1
                bundle-di: com.example.x
                resources:
                  - {path: A, tag: [a]}
                  - {pth: B, tags: [b]}
                  - {path: C}
                """.utf8),
            displayPath: "odrpack.yml", directory: "/tmp")
        #expect(manifest == nil)
        #expect(
            diagnostics.map { "\($0.location?.line ?? 0):\($0.code.rawValue)" } == [
                "1:manifest-unknown-key", "2:manifest-unknown-key", "4:manifest-unknown-key",
                "5:manifest-unknown-key", "6:manifest-missing-key",
            ])
        #expect(diagnostics[2].message == "unknown key 'tag' in a resources entry: did you mean 'tags'?")
    }

    /// NFC typed, NFD on disk: not "letter case differs", but the normalization, both spellings escaped.
    @Test func aNameInAnotherNormalizationSaysSo() throws {
        let project = try TemporaryProject()
        try project.file("R/De\u{301}sert/a.json", "{}")
        let manifest = try project.manifest(
            "version: 1\nbundle-id: com.example.nfc\nresources-root: R\nresources:\n  - {path: \"D\u{E9}sert\", tags: [a]}\n"
        )
        let result = try ProjectPlanner().plan(manifestPath: manifest, format: .odr)
        #expect(result.codes == ["path-not-found"])
        let message = try #require(result.diagnostics.first?.message)
        #expect(
            message.hasSuffix(
                """
                : did you mean 'De\\u0301sert' (written 'D\\u00e9sert')? the name differs in Unicode normalization (NFD \
                on disk, NFC in the manifest), and entries name the bytes on disk: write the name as it is on disk
                """), "\(message)")
        #expect(!message.contains("letter case"))
    }
}
