import Foundation
import Testing

@testable import ODRPackCore

/// docs/manifest.md#allowed-warnings: `allow` at the top level and on an entry; what it takes, and what it leaves.
@Suite struct AllowListTests {
    /// Two globs that match nothing (lines 6 and 7) and a 70-byte pack over a 50-byte recommended size (line 5).
    func plan(top: String = "", first: String = "", second: String = "") throws -> PlanResult {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.allow
            limits: {recommended-size: 50B}
            resources:
              - {path: A, tags: [intro]\(first)}
              - {glob: "*.caf", tags: [audio]\(second)}
              - glob: "*.wav"
                tags: [sfx]
            \(top)
            """)
        try project.file("A/a.json", String(repeating: "a", count: 70))
        return try project.plan()
    }

    @Test func eachWarningSaysHowToAllowIt() throws {
        let result = try plan()
        #expect(result.allowed.isEmpty)
        #expect(
            result.diagnostics.inPositionOrder.map(\.message) == [
                """
                pack and tag 'intro' is 70 B, over the 50 B recommended size: smaller packs download sooner; allow it: \
                allow: [over-recommended-size]
                """,
                """
                glob '*.caf' matches no file: check the pattern (paths are relative to resources-root); allow it: \
                allow: [entry-matches-nothing]
                """,
                """
                glob '*.wav' matches no file: check the pattern (paths are relative to resources-root); allow it: \
                allow: [entry-matches-nothing]
                """,
            ])
    }

    @Test func theTopLevelAllowsACodeEverywhere() throws {
        let result = try plan(top: "allow: [entry-matches-nothing]")
        #expect(result.codes == ["over-recommended-size"])
        #expect(result.allowed.map(\.code) == [.entryMatchesNothing, .entryMatchesNothing])
        #expect(result.allowed.map(\.location?.line) == [6, 7])
        // Allowed warnings are kept as found, without the hint.
        #expect(result.allowed.allSatisfy { !$0.message.contains("allow it") })
    }

    @Test func anEntryAllowsOnlyWhatIsReportedAtIt() throws {
        let result = try plan(first: ", allow: [over-recommended-size]", second: ", allow: [entry-matches-nothing]")
        #expect(result.diagnostics.map(\.location?.line) == [7])
        #expect(result.codes == ["entry-matches-nothing"])
        #expect(result.allowed.inPositionOrder.map(\.code) == [.overRecommendedSize, .entryMatchesNothing])
        // An entry's allow does not reach another entry's code.
        let other = try plan(first: ", allow: [entry-matches-nothing]")
        #expect(other.allowed.isEmpty)
        #expect(other.diagnostics.count == 3)
    }

    @Test func errorsAndUnknownCodesCannotBeAllowed() throws {
        let (_, diagnostics) = ManifestLoader().parse(
            data: Data("version: 1\nbundle-id: com.example.x\nallow: [tag-simlar, pack-too-large, tag-unused]\n".utf8),
            displayPath: "odrpack.yml", directory: "/tmp")
        #expect(diagnostics.map(\.code) == [.manifestInvalidValue, .manifestInvalidValue])
        #expect(
            diagnostics.map(\.message) == [
                "'tag-simlar' in 'allow' is no diagnostic code: did you mean 'tag-similar'? list warning codes only",
                """
                'pack-too-large' in 'allow' is an error code, and only warnings can be allowed: fix what it reports, \
                and list warning codes only
                """,
            ])
        #expect(
            diagnostics.map(\.location) == [
                SourceLocation(file: "odrpack.yml", line: 3, column: 9),
                SourceLocation(file: "odrpack.yml", line: 3, column: 21),
            ])
    }

    /// An entry's `allow` covers its files, tags and packs (SPEC section 2) also where another entry gives the same
    /// tag first: the pack's size and the collision of the second entry's own files are the second entry's.
    @Test func anEntryAllowsThePackItsFilesShare() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.allow
            limits: {recommended-size: 50B}
            resources:
              - {path: A, tags: [intro]}
              - path: B
                tags: [intro]
                allow: [over-recommended-size, case-collision]
            """)
        try project.file("A/a.json", String(repeating: "a", count: 70))
        try project.file("B/x.txt", "x")
        try project.file("B/X.txt", "y")
        let result = try project.plan()
        #expect(result.diagnostics.isEmpty)
        #expect(result.allowed.inPositionOrder.map(\.code) == [.overRecommendedSize, .caseCollision])
        // The collision is reported at the entry that gives the colliding files.
        #expect(result.allowed.first { $0.code == .caseCollision }?.location?.line == 6)
        // Without the entry's allow, both are reported.
        let bare = try TemporaryProject()
        try bare.manifest(
            """
            version: 1
            bundle-id: com.example.allow
            limits: {recommended-size: 50B}
            resources:
              - {path: A, tags: [intro]}
              - {path: B, tags: [intro]}
            """)
        try bare.file("A/a.json", String(repeating: "a", count: 70))
        try bare.file("B/x.txt", "x")
        try bare.file("B/X.txt", "y")
        #expect(
            try bare.plan().diagnostics.map(\.code).sorted { $0.rawValue < $1.rawValue } == [
                .caseCollision, .overRecommendedSize,
            ])
    }

    /// The pack's one `asset-catalog-uncompiled` is at the entry that gives the catalog's files, so that entry's `allow`
    /// takes it, though another entry gives the pack's first files.
    @Test func anEntryAllowsTheCatalogItGives() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.allow
            resources:
              - {path: A, tags: [art]}
              - path: Assets.xcassets
                tags: [art]
                allow: [asset-catalog-uncompiled]
            """)
        try project.file("A/a.json", "{}")
        try project.file("Assets.xcassets/Hero.imageset/hero.png", "png")
        let result = try project.plan()
        #expect(result.diagnostics.isEmpty)
        #expect(result.allowed.map(\.code) == [.assetCatalogUncompiled])
        #expect(result.allowed.first?.location?.line == 5)
    }

    /// The whitespace warning of `tag-invalid`, an error code that `allow` refuses, does not end with a hint that would
    /// lead to `manifest-invalid-value`; every allowable warning does.
    @Test func noHintThatAllowRefuses() throws {
        let whitespace = Diagnostic.warning(.tagInvalid, "tag ' world' has leading or trailing whitespace")
        #expect(AllowList.withAllowHint(whitespace) == whitespace)
        let similar = Diagnostic.warning(.tagSimilar, "'wrold' is given only here")
        #expect(
            AllowList.withAllowHint(similar).message == "'wrold' is given only here; allow it: allow: [tag-similar]")
    }

    /// An error is never allowed, even under a code that is a warning elsewhere.
    @Test func anErrorOfAnAllowedCodeStays() {
        var list = AllowList()
        list.codes = [.buildFolderSkipped]
        let error = Diagnostic.error(.buildFolderSkipped, "named build folder")
        let warning = Diagnostic.warning(.buildFolderSkipped, "skipped")
        #expect(list.partition([error, warning]).reported == [error])
        #expect(list.partition([error, warning]).allowed == [warning])
    }
}
