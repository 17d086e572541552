import Foundation
import Testing

@testable import ODRPackCore

/// docs/manifest.md's rules that keep a manifest's mistakes to one message each: tags in several languages are no
/// misspelling.
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
}
