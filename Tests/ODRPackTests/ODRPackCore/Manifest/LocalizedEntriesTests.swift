import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackCore

/// docs/background-assets.md#languages and #platforms, the manifest side: an entry's `language` (BCP 47 language,
/// script and region subtags, in canonical case), `{language}` as one whole path component, and `platforms` as a
/// subset of `background-assets.platforms`; every problem at the manifest's file:line:column.
@Suite struct LocalizedEntriesTests {
    func load(_ entries: String, background: String = "") -> (TagManifest?, [Diagnostic]) {
        let text = """
            version: 1
            bundle-id: com.example.game
            resources:
            \(entries)
            \(background)
            """
        let result = ManifestLoader().parse(
            data: Data(text.utf8), displayPath: "odrpack.yml", directory: FilePath("/tmp"))
        return (result.manifest, result.diagnostics)
    }

    @Test(arguments: [
        ("fr", "fr"), ("EN-us", "en-US"), ("zh-hant", "zh-Hant"), ("ZH-HANT-tw", "zh-Hant-TW"), ("es-419", "es-419"),
        ("sr-latn-rs", "sr-Latn-RS"), ("haw", "haw"), ("pt-br", "pt-BR"),
    ])
    func aLanguageIsWrittenInCanonicalCase(written: String, canonical: String) {
        #expect(LanguageTag.canonical(written) == canonical)
    }

    /// One letter or four for the language, a region of 1 or 3 letters or of 2 or 4 digits, a variant, an extension,
    /// private use, `_`, an empty subtag: none is a tag of language, script and region subtags.
    @Test(arguments: [
        "", "e", "engl", "en-U", "en-USA", "en-41", "en-4190", "de-CH-1996", "en-US-x-private", "x-private", "en_US",
        "en-", "-en", "en--US", "zh-Hant-Hans", "é", "en-Latn-US-US",
    ])
    func otherTextIsNoLanguage(text: String) {
        #expect(LanguageTag.canonical(text) == nil)
    }

    @Test func aFolderNamesItsLanguageWithOrWithoutLprojAndWithUnderscores() {
        #expect(LanguageTag.folderMeaning("fr") == .language("fr"))
        #expect(LanguageTag.folderMeaning("fr.lproj") == .language("fr"))
        #expect(LanguageTag.folderMeaning("pt_BR.lproj") == .language("pt-BR"))
        #expect(LanguageTag.folderMeaning("zh_hant") == .language("zh-Hant"))
        #expect(LanguageTag.folderMeaning("Base.lproj") == .notLocalized)
        // Only Xcode's own name is the base: `Base` alone and `base.lproj` are not languages.
        #expect(LanguageTag.folderMeaning("Base") == .invalid)
        #expect(LanguageTag.folderMeaning("base.lproj") == .invalid)
        #expect(LanguageTag.folderMeaning("drafts") == .invalid)
        #expect(LanguageTag.folderMeaning(".lproj") == .invalid)
    }

    @Test func anEntryLanguageIsKeptCanonical() throws {
        let (manifest, diagnostics) = load(
            """
              - path: Voice/us
                tags: [voice]
                language: EN-us
            """)
        #expect(diagnostics.isEmpty)
        let entry = try #require(manifest?.entries.first)
        #expect(entry.language?.value == "en-US")
        #expect(entry.languageComponent == nil && entry.platforms == nil)
    }

    @Test func anInvalidLanguageIsLanguageInvalidWhereItIsWritten() throws {
        let (manifest, diagnostics) = load(
            """
              - path: Voice/us
                tags: [voice]
                language: en_US
            """)
        #expect(manifest == nil)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostics.count == 1 && diagnostic.code == .languageInvalid && diagnostic.severity == .error)
        #expect(diagnostic.location?.file == "odrpack.yml")
        #expect(diagnostic.location?.line == 6 && diagnostic.location?.column == 15)
        // The fix for the underscore is said.
        #expect(diagnostic.message.contains("write 'en-US'"))
    }

    @Test func thePlaceholderIsFoundAsOneWholeComponent() throws {
        let (manifest, diagnostics) = load(
            """
              - path: "Video/{language}/Intro"
                tags: [intro]
              - glob: "Text/{language}/**/*.strings"
                tags: [text]
              - path: "{language}"
                tags: [all]
            """)
        #expect(diagnostics.isEmpty)
        #expect(manifest?.entries.map(\.languageComponent) == [1, 1, 0])
    }

    @Test(arguments: ["Video/{language}-hd", "Video/{language}/{language}", "Video/x{language}", "{language}.lproj"])
    func aPlaceholderNotAloneOrTwiceIsLanguageInvalid(path: String) throws {
        let (manifest, diagnostics) = load(
            """
              - path: "\(path)"
                tags: [intro]
            """)
        #expect(manifest == nil)
        #expect(diagnostics.map(\.code) == [.languageInvalid])
        #expect(diagnostics.first?.location?.line == 4 && diagnostics.first?.location?.column == 11)
    }

    @Test func languageWithThePlaceholderIsLanguageInvalidAtTheLanguage() throws {
        let (manifest, diagnostics) = load(
            """
              - path: "Video/{language}"
                tags: [intro]
                language: fr
            """)
        #expect(manifest == nil)
        #expect(diagnostics.map(\.code) == [.languageInvalid])
        #expect(diagnostics.first?.location?.line == 6 && diagnostics.first?.location?.column == 15)
    }

    @Test func platformsAreASubsetOfTheBackgroundAssetsPlatforms() throws {
        let (manifest, diagnostics) = load(
            """
              - path: Characters4K
                tags: [characters]
                platforms: [tvOS]
              - path: Characters
                tags: [characters]
                platforms: [tvOS, iOS]
            """,
            background: """
                background-assets:
                  platforms: [iOS, tvOS]
                """)
        #expect(diagnostics.isEmpty)
        #expect(manifest?.entries.map { $0.platforms?.map(\.value) } == [["tvOS"], ["tvOS", "iOS"]])
    }

    /// The default platforms are [iOS] (profile other than tvos): tvOS is not among them.
    @Test func aPlatformOutsideTheListIsPlatformInvalidAtTheValue() throws {
        let (manifest, diagnostics) = load(
            """
              - path: Characters4K
                tags: [characters]
                platforms: [iOS, tvOS]
            """)
        #expect(manifest == nil)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostics.count == 1 && diagnostic.code == .platformInvalid && diagnostic.subject == "tvOS")
        #expect(diagnostic.location?.line == 6 && diagnostic.location?.column == 22)
        #expect(diagnostic.message.contains("background-assets.platforms (iOS)"))
    }

    @Test(arguments: [
        ("[]", "'platforms' is empty"), ("[iOS, iOS]", "listed twice"), ("[ios]", "did you mean 'iOS'"),
        ("[Android]", "unknown platform 'Android'"),
    ])
    func anEmptyDoubledOrUnknownPlatformIsPlatformInvalid(list: String, says: String) throws {
        let (manifest, diagnostics) = load(
            """
              - path: Characters
                tags: [characters]
                platforms: \(list)
            """)
        #expect(manifest == nil)
        #expect(diagnostics.map(\.code) == [.platformInvalid])
        #expect(diagnostics.first?.message.contains(says) == true, "\(diagnostics.map(\.message))")
    }
}
