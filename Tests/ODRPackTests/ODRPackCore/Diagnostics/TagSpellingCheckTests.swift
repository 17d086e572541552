import Foundation
import Testing

@testable import ODRPackCore

/// docs/manifest.md#declared-tags: `tag-similar`, `tags:` with `tag-undeclared` and `tag-unused`, and a build
/// manifest given as a tag manifest.
@Suite struct TagSpellingCheckTests {
    func plan(_ resources: String, extra: String = "") throws -> PlanResult {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.tags\nresources:\n" + resources + extra)
        for folder in ["World1", "World2", "World3", "Shared", "Boss", "Menu", "Intro"] {
            try project.file("\(folder)/a.json", folder)
        }
        return try project.plan()
    }

    @Test func aMisspeltTagGivenOnceIsSimilar() throws {
        let result = try plan(
            """
              - {path: World3, tags: [world3]}
              - {path: Shared, tags: [world3]}
              - {path: Boss, tags: [wrold3]}

            """)
        let similar = result.diagnostics(.tagSimilar)
        #expect(similar.count == 1)
        #expect(similar.first?.severity == .warning)
        #expect(
            similar.first?.message
                == """
                'wrold3' is given only here: did you mean 'world3'? a misspelt tag makes its own pack; allow it: \
                allow: [tag-similar]
                """)
        #expect(similar.first?.location?.line == 6)
        #expect(similar.first?.subject == "wrold3")
    }

    @Test func letterCaseAloneIsSimilar() throws {
        let result = try plan(
            "  - {path: World1, tags: [boss]}\n  - {path: World2, tags: [boss]}\n  - {path: Boss, tags: [Boss]}\n")
        #expect(
            result.diagnostics(.tagSimilar).map(\.message) == [
                "'Boss' is given only here: did you mean 'boss'? a misspelt tag makes its own pack; allow it: allow: [tag-similar]"
            ])
    }

    /// Numbers are levels, not typos; a tag two entries give, or one a list names, is meant.
    @Test func noWolf() throws {
        let numbered = try plan(
            "  - {path: World1, tags: [world1]}\n  - {path: World2, tags: [world2]}\n  - {path: World3, tags: [world12]}\n"
                + "  - {path: Boss, tags: [level-1-3]}\n  - {path: Menu, tags: [level-1-4]}\n")
        #expect(numbered.diagnostics(.tagSimilar).isEmpty)
        // Only the tag one entry gives is reported, never the one two entries give, nor one a list names.
        let twice = try plan(
            "  - {path: World1, tags: [castle]}\n  - {path: World2, tags: [catsle]}\n  - {path: World3, tags: [catsle]}\n"
        )
        #expect(twice.diagnostics(.tagSimilar).map(\.subject) == ["castle"])
        let listed = try plan(
            "  - {path: World1, tags: [castle]}\n  - {path: World2, tags: [catsle]}\n",
            extra: "prefetch-order: [catsle]\n")
        #expect(listed.diagnostics(.tagSimilar).map(\.subject) == ["castle"])
        // Short names are names: one letter in three at most.
        let short = try plan(
            "  - {path: World1, tags: [ui]}\n  - {path: World2, tags: [fx]}\n  - {path: World3, tags: [a]}\n  - {path: Boss, tags: [b]}\n"
        )
        #expect(short.diagnostics(.tagSimilar).isEmpty)
        // Two letters more are another word (the Unicode tests' composed and decomposed).
        let prefixed = try plan("  - {path: World1, tags: [composed]}\n  - {path: World2, tags: [decomposed]}\n")
        #expect(prefixed.diagnostics(.tagSimilar).isEmpty)
        // Three edits apart: another word.
        let far = try plan("  - {path: World1, tags: [music]}\n  - {path: World2, tags: [maps]}\n")
        #expect(far.diagnostics(.tagSimilar).isEmpty)
    }

    /// SPEC 6.2: one or two edits, and two neighbouring letters swapped are one typo, so short words are caught too
    /// (`intor` for `intro`, `levle` for `level`), while the one-letter-in-three bound still keeps `ui` and `fx` apart.
    @Test func aSwappedPairIsOneEdit() throws {
        let result = try plan(
            "  - {path: Intro, tags: [intro]}\n  - {path: Menu, tags: [intor]}\n"
                + "  - {path: World1, tags: [level]}\n  - {path: World2, tags: [levle]}\n")
        #expect(result.diagnostics(.tagSimilar).map(\.subject) == ["intor", "levle"])
        #expect(TagSpellingCheck.typoDistance("intro", "intor") == 1)
        #expect(TagSpellingCheck.typoDistance("world", "wrold") == 1)
        #expect(TagSpellingCheck.typoDistance("music", "maps") == 4)
        // A swap across a digit touches the digit: two levels, not a typo.
        #expect(!TagSpellingCheck.areTwins("level1a", "levela1"))
    }

    /// Two lone twins: only the later one is reported, never each the other.
    @Test func twoLoneTwinsGiveOneWarning() throws {
        let result = try plan("  - {path: World1, tags: [credits]}\n  - {path: World2, tags: [cerdits]}\n")
        #expect(result.diagnostics(.tagSimilar).map(\.subject) == ["cerdits"])
    }

    @Test func theSampleProjectHasNoSimilarTags() throws {
        let result = try ProjectPlanner().plan(
            manifestPath: TestPaths.repository.appendingPathComponent("SampleProject/odrpack.yml").path, format: .odr)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
    }

    @Test func declaredTags() throws {
        let result = try plan(
            "  - {path: World1, tags: [world1]}\n  - {path: World2, tags: [wrold2]}\n",
            extra: "tags: [world1, world2, boss]\n")
        #expect(result.codes.sorted() == ["tag-undeclared", "tag-unused", "tag-unused"])
        let undeclared = try #require(result.diagnostics(.tagUndeclared).first)
        #expect(undeclared.severity == .error)
        #expect(
            undeclared.message
                == "tag 'wrold2' is not in the manifest's 'tags' list: did you mean 'world2'? fix the tag, or add it to 'tags'"
        )
        #expect(undeclared.location?.line == 5)
        #expect(result.diagnostics(.tagUnused).map(\.subject) == ["world2", "boss"])
        #expect(result.diagnostics(.tagUnused).allSatisfy { $0.severity == .warning && $0.location?.line == 6 })
        // tags: turns tag-similar off: the list says which tags exist.
        #expect(result.diagnostics(.tagSimilar).isEmpty)
    }

    /// `odrpack plan build/odrpack-manifest.json`: one error, what it is and what to pass (report takes a build:
    /// BuildReportPageTests).
    @Test func aBuildManifestIsOneError() throws {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.tags\nresources:\n  - {path: A, tags: [a]}\n")
        try project.file("A/a.json", "{}")
        let build = try CommandRunner.run(["build", "-o", "out"], in: project.root)
        #expect(build.status == 0)
        for command in [["plan"], ["validate"]] {
            let output = try CommandRunner.run(command + ["out/odrpack-manifest.json"], in: project.root)
            #expect(output.status == 1, "\(command)")
            #expect(
                output.stderr.hasPrefix(
                    """
                    out/odrpack-manifest.json:1:1: error: 'out/odrpack-manifest.json' is a build manifest (the \
                    odrpack-manifest.json that build writes), not a tag manifest: pass the odrpack.yml it was built \
                    from (report, diff, verify, thin, ipa, upload, submit and status take a build folder) \
                    [manifest-syntax]

                    """), "\(command): \(output.stderr)")
            #expect(output.stderr.components(separatedBy: "error:").count == 2, "\(command)")
        }
    }
}
