import Foundation
import Testing

@testable import ODRPackCore

/// docs/background-assets.md#languages and #platforms, resolution and planning: a Background Assets pack per
/// (tag set, language, platform set) with the tag set's id plus `-platforms` (when not every platform) and
/// `-language`; ODR packs per tag set whatever the languages, with the files for `--platform` only.
@Suite struct LocalizedPacksTests {
    let project: TemporaryProject

    init() throws {
        project = try TemporaryProject()
        try project.file("R/Voice/en/line.caf", "en-line")
        try project.file("R/Voice/fr.lproj/line.caf", "fr-line")
        try project.file("R/Voice/pt_BR/line.caf", "pt-line")
        try project.file("R/Voice/Base.lproj/beep.caf", "beep")
        try project.file("R/Characters/hero.png", "hero")
        try project.file("R/Characters4K/hero.png", "hero-4k")
        try project.file("R/Intro/movie.mov", "movie")
    }

    static let header = """
        version: 1
        bundle-id: com.example.game
        resources-root: R
        """

    func plan(
        _ body: String, format: PackFormat = .backgroundAssets, platform: ApplePlatform? = nil,
        profile: String? = nil
    ) throws -> PlanResult {
        try project.manifest(Self.header + "\n" + body)
        return try ProjectPlanner().plan(
            manifestPath: project.manifestPath, profile: profile, format: format, platform: platform)
    }

    static let game = """
        resources:
          - path: "Voice/{language}"
            tags: [voice]
          - path: Characters
            tags: [characters]
          - path: Characters4K
            tags: [characters]
            platforms: [tvOS]
          - path: Intro
            tags: [intro]
            language: FR
        initial-install: [voice]
        background-assets:
          platforms: [tvOS, iOS]
        """

    @Test func backgroundAssetsPacksArePerTagSetLanguageAndPlatformSet() throws {
        let result = try plan(Self.game)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        let plan = try #require(result.plan)
        let voice = expectedAssetPackID(["voice"])
        let characters = expectedAssetPackID(["characters"])
        let intro = expectedAssetPackID(["intro"])
        let rows = plan.packs.map { [$0.assetPackID, $0.language ?? "-", $0.platforms?.joined(separator: "+") ?? "?"] }
        let expected = [
            [characters, "-", "iOS+tvOS"], [characters + "-tvos", "-", "tvOS"], [intro + "-fr", "fr", "iOS+tvOS"],
            [voice, "-", "iOS+tvOS"], [voice + "-en", "en", "iOS+tvOS"], [voice + "-fr", "fr", "iOS+tvOS"],
            [voice + "-pt-BR", "pt-BR", "iOS+tvOS"],
        ]
        #expect(rows.sorted { $0[0] < $1[0] } == expected.sorted { $0[0] < $1[0] })
        // The build manifest's id: the tag set's for a pack for every platform without a language, else with the suffix.
        let md5 = PackIdentity.digest(tags: ["voice"])
        #expect(
            plan.packs.first { $0.language == nil && $0.tags == ["voice"] }?.id == "com.example.game.asset-pack-\(md5)")
        #expect(
            plan.packs.first { $0.language == "pt-BR" }?.id == "com.example.game.asset-pack-\(md5)-pt-BR")
        #expect(Set(plan.packs.map(\.id)).count == plan.packs.count)
        // Files: Base.lproj is no language; each folder's files in its language's pack.
        let files = Dictionary(uniqueKeysWithValues: plan.packs.map { ($0.assetPackID, $0.files.map(\.path)) })
        #expect(files[voice] == ["Voice/Base.lproj/beep.caf"])
        #expect(files[voice + "-fr"] == ["Voice/fr.lproj/line.caf"])
        #expect(files[characters + "-tvos"] == ["Characters4K/hero.png"])
        #expect(plan.languages == ["en", "fr", "pt-BR"])
    }

    @Test func theIdSuffixPutsPlatformsInTheirOrderBeforeTheLanguage() {
        #expect(
            BackgroundAssetsIdentity.suffix(platforms: ["tvOS"], allPlatforms: ["iOS", "tvOS"], language: "fr")
                == "-tvos-fr")
        #expect(
            BackgroundAssetsIdentity.suffix(
                platforms: ["visionOS", "iOS", "macOS"], allPlatforms: ["iOS", "tvOS", "macOS", "visionOS"],
                language: nil) == "-ios-macos-visionos")
        // Every platform, in any order: no platform part.
        #expect(
            BackgroundAssetsIdentity.suffix(platforms: ["tvOS", "iOS"], allPlatforms: ["iOS", "tvOS"], language: nil)
                == "")
        #expect(
            BackgroundAssetsIdentity.suffix(platforms: ["iOS"], allPlatforms: ["iOS"], language: "zh-Hant")
                == "-zh-Hant")
    }

    /// What a player of each language downloads: at installation the essential packs without a language plus that
    /// language's; up to every pack without a language plus that language's; per platform with several.
    @Test func perLanguageDownloadsCountTheLanguagesOwnPacksAndThoseWithoutOne() throws {
        let plan = try #require(try plan(Self.game).plan)
        let rows = LanguageDownloads.rows(plan)
        // Sizes: beep 4, en 7, fr 7, pt 7 (voice, essential); hero 4 (every platform), hero-4k 7 (tvOS); movie 5 (fr).
        #expect(
            rows.map { [$0.platform ?? "-", $0.language, "\($0.atInstallation)", "\($0.upTo)"] } == [
                ["iOS", "en", "11", "15"], ["iOS", "fr", "11", "20"], ["iOS", "pt-BR", "11", "15"],
                ["tvOS", "en", "11", "22"], ["tvOS", "fr", "11", "27"], ["tvOS", "pt-BR", "11", "22"],
            ])
    }

    @Test func aFileGivenTwoLanguagesIsLanguageConflictNamingBothEntries() throws {
        let result = try plan(
            """
            resources:
              - path: "Voice/{language}"
                tags: [voice]
              - path: Voice/en/line.caf
                tags: [voice]
                language: en-GB
            """)
        let conflicts = result.diagnostics(.languageConflict)
        #expect(conflicts.count == 1 && conflicts.first?.severity == .error)
        let message = try #require(conflicts.first?.message)
        #expect(message.contains("'Voice/en/line.caf'") && message.contains("'en'") && message.contains("'en-GB'"))
        #expect(message.contains("odrpack.yml:5:11") && message.contains("odrpack.yml:7:11"))
    }

    /// Base.lproj, or a second entry without a language, never conflicts with a language.
    @Test func anEntryWithoutALanguageNeverConflicts() throws {
        let result = try plan(
            """
            resources:
              - path: "Voice/{language}"
                tags: [voice]
              - path: Voice
                tags: [audio]
            """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        #expect(result.plan?.packs.first { $0.language == "fr" }?.tags == ["audio", "voice"])
    }

    @Test func anotherNameOrAFileAtTheLanguagePlaceIsLanguageInvalidNamingIt() throws {
        try project.file("R/Voice/drafts/take2.caf", "draft")
        try project.file("R/Voice/readme.txt", "notes")
        let result = try plan(
            """
            resources:
              - path: "Voice/{language}"
                tags: [voice]
            """)
        let invalid = result.diagnostics(.languageInvalid)
        #expect(invalid.map(\.subject) == ["Voice/drafts", "Voice/readme.txt"])
        #expect(invalid.allSatisfy { $0.location?.line == 5 && $0.severity == .error })
        // Excluded, they are no problem.
        let excluded = try plan(
            """
            resources:
              - path: "Voice/{language}"
                tags: [voice]
            exclude: ["Voice/drafts/**", "**/*.txt"]
            """)
        #expect(excluded.diagnostics.isEmpty, "\(excluded.diagnostics.map(\.message))")
    }

    @Test func aGlobTakesTheLanguageOfTheFolderAtItsPlaceholder() throws {
        try project.file("R/Text/de/Menus/main.strings", "de")
        try project.file("R/Text/Base.lproj/Menus/main.strings", "base")
        try project.file("R/Text/junk/Menus/main.strings", "junk")
        let result = try plan(
            """
            resources:
              - glob: "Text/{language}/**/*.strings"
                tags: [text]
            """)
        #expect(result.diagnostics(.languageInvalid).map(\.subject) == ["Text/junk"])
        let packs = try #require(result.plan?.packs)
        #expect(packs.first { $0.language == "de" }?.files.map(\.path) == ["Text/de/Menus/main.strings"])
        #expect(
            packs.first { $0.language == nil }?.files.map(\.path).sorted()
                == ["Text/Base.lproj/Menus/main.strings", "Text/junk/Menus/main.strings"])
        #expect(LanguageFolders.languageFolder(of: ["A", "B", "fr", "x.txt"], glob: "**/{language}/*.txt") == "fr")
        #expect(LanguageFolders.languageFolder(of: ["fr", "x.txt"], glob: "**/{language}/*.txt") == "fr")
        #expect(LanguageFolders.languageFolder(of: ["fr"], glob: "{language}") == nil)
    }

    @Test func aPlaceholderOverNoLanguageFolderMatchesNothing() throws {
        try project.folder("R/Empty")
        let result = try plan(
            """
            resources:
              - path: "Empty/{language}"
                tags: [voice]
              - path: "Missing/{language}"
                tags: [voice]
            """)
        #expect(result.codes == ["entry-matches-nothing", "path-not-found"])
    }

    /// Every pack of every language counts; the error names the languages that multiply packs.
    @Test func tooManyPacksNamesTheLanguages() throws {
        let result = try plan(
            """
            resources:
              - path: "Voice/{language}"
                tags: [voice]
              - path: Characters
                tags: [characters]
            limits:
              max-pack-count: 5
            """)
        #expect(result.diagnostics(.tooManyPacks).isEmpty)
        let over = try plan(
            """
            resources:
              - path: "Voice/{language}"
                tags: [voice]
              - path: Characters
                tags: [characters]
            limits:
              max-pack-count: 3
            """)
        let message = try #require(over.diagnostics(.tooManyPacks).first?.message)
        #expect(message.hasPrefix("5 packs, over the limit of 3"))
        #expect(message.contains("these languages multiply packs: en (1 pack), fr (1 pack), pt-BR (1 pack)"))
        // One file, one tag: "1 tag", never "1 tags".
        #expect(message.contains(" (1 tag)") && !message.contains("(1 tags)"), "\(message)")
    }

    /// ODR packs stay one per tag set, holding every language; `--platform` takes the files of entries without
    /// `platforms` and of those that list it.
    @Test func odrPacksHoldEveryLanguageAndTheFilesOfThePlatform() throws {
        let iOS = try #require(try plan(Self.game, format: .odr).plan)
        #expect(iOS.platform == "iOS" && iOS.otherPlatformFiles == 1)
        #expect(Set(iOS.packs.map(\.tags)) == [["characters"], ["intro"], ["voice"]] && iOS.packs.count == 3)
        #expect(iOS.packs.allSatisfy { $0.language == nil && $0.platforms == nil && $0.idSuffix.isEmpty })
        #expect(iOS.packs.first { $0.tags == ["voice"] }?.files.count == 4)
        #expect(iOS.packs.first { $0.tags == ["characters"] }?.files.map(\.path) == ["Characters/hero.png"])
        #expect(iOS.manifestLanguages == ["en", "fr", "pt-BR"])
        let tvOS = try #require(try plan(Self.game, format: .odr, platform: .tvOS).plan)
        #expect(tvOS.platform == "tvOS" && tvOS.otherPlatformFiles == 0)
        #expect(
            tvOS.packs.first { $0.tags == ["characters"] }?.files.map(\.path)
                == ["Characters/hero.png", "Characters4K/hero.png"])
        // The profile decides the default: tvos gives tvOS.
        #expect(try plan(Self.game, format: .odr, profile: "tvos").plan?.platform == "tvOS")
    }

    /// Limits are judged on the platform's selection: the tvOS-only file makes a pack too large on tvOS alone.
    @Test func odrLimitsAreJudgedOnThePlatformsFiles() throws {
        let body = Self.game.replacingOccurrences(
            of: "initial-install: [voice]", with: "initial-install: [voice]\nlimits:\n  max-pack-size: 8")
        #expect(try plan(body, format: .odr).diagnostics(.packTooLarge).count == 1)
        #expect(try plan(body, format: .odr, platform: .tvOS).diagnostics(.packTooLarge).count == 2)
    }
}
