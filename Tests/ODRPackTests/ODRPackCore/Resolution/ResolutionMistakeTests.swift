import Foundation
import Testing

@testable import ODRPackCore

/// Mistakes a manifest makes, answered with the fix (docs/diagnostics.md), what Xcode's resource copy always drops
/// (docs/manifest.md), and destinations an untagged file already holds (docs/manifest.md#destinations).
@Suite struct ResolutionMistakeTests {
    func project(_ entries: String, extra: String = "") throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.x\nresources-root: R\nresources:\n\(entries)\(extra)")
        try project.folder("R")
        return project
    }

    /// The classic Mac manifest on Linux CI: the disk has `World1`, the entry says `world1`.
    @Test func aPathThatDiffersInCaseNamesTheNameOnDisk() throws {
        let project = try project(
            "  - {path: Levels/world1, tags: [world1]}\n  - {path: Levels/Wrold2, tags: [world2]}\n"
                + "  - {path: Nothing/here, tags: [gone]}\n",
            extra: "initial-install: [world1]\nprefetch-order: [world2, gone]\n")
        try project.file("R/Levels/World1/map.json")
        try project.file("R/Levels/World2/map.json")
        let result = try project.plan()
        let missing = result.diagnostics(.pathNotFound)
        #expect(missing.count == 3)
        let first = missing.first { $0.subject == "Levels/world1" }
        #expect(
            first?.message
                == """
                path 'Levels/world1' does not exist under resources-root: did you mean 'Levels/World1'? letter case \
                differs, and Linux file systems are case-sensitive: write the name as it is on disk
                """)
        #expect(first?.location?.line == 5)
        let second = missing.first { $0.subject == "Levels/Wrold2" }
        #expect(
            second?.message
                == "path 'Levels/Wrold2' does not exist under resources-root: did you mean 'Levels/World2'? fix the path or remove the entry"
        )
        let third = missing.first { $0.subject == "Nothing/here" }
        #expect(
            third?.message
                == "path 'Nothing/here' does not exist under resources-root: fix the path or remove the entry")
        // Their tags are not reported again as tag-unknown: 3 mistakes, 3 errors.
        #expect(result.diagnostics(.tagUnknown).isEmpty)
        #expect(result.diagnostics.errorCount == 3)
    }

    @Test func aTagNoEntryGivesIsStillUnknown() throws {
        let project = try project("  - {path: a.txt, tags: [a]}\n", extra: "initial-install: [b]\n")
        try project.file("R/a.txt")
        let result = try project.plan()
        #expect(result.diagnostics(.tagUnknown).map(\.subject) == ["b"])
    }

    /// A path outside resources-root drops its entry and stops nothing: every other problem shows in the same run.
    @Test func aPathOutsideRootDoesNotHideTheOtherProblems() throws {
        let project = try project(
            "  - {path: ../outside, tags: [out]}\n  - {path: levels/one, tags: [one]}\n  - {path: ok.txt, tags: [ok]}\n",
            extra: "initial-install: [out, one, typo]\n")
        try project.file("R/Levels/One/a.json")
        try project.file("R/ok.txt")
        let result = try project.plan()
        #expect(result.diagnostics(.pathOutsideRoot).count == 1)
        #expect(result.diagnostics(.pathNotFound).first?.message.contains("did you mean 'Levels/One'?") == true)
        #expect(result.diagnostics(.tagUnknown).map(\.subject) == ["typo"])
        #expect(result.plan?.packs.map(\.tags) == [["ok"]])
    }

    /// `.DS_Store` files and every version-control name, file or folder, at any depth, in a tagged folder too.
    @Test func versionControlAndFinderFilesAreAlwaysExcluded() throws {
        let project = try project("  - {path: Levels, tags: [levels]}\n")
        for path in [
            "R/Levels/a.json", "R/Levels/.DS_Store", "R/Levels/Sub/.DS_Store", "R/Levels/.git",
            "R/Levels/Sub/.git/HEAD",
            "R/Levels/.svn/entries", "R/Levels/Sub/.hg/store", "R/Levels/.bzr/x", "R/Levels/CVS/Root",
            "R/Levels/Deep/er/CVS", "R/untagged/.svn/x", "R/.DS_Store", "R/keep.txt",
        ] {
            try project.file(path)
        }
        // Names that only look alike are kept.
        try project.file("R/Levels/cvs.txt")
        try project.file("R/Levels/.gitignore")
        try project.file("R/Levels/CVS2/x")
        let result = try project.plan()
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(
            result.pack(tags: ["levels"])?.files.map(\.path) == [
                "Levels/.gitignore", "Levels/CVS2/x", "Levels/a.json", "Levels/cvs.txt",
            ])
        #expect(result.resolution?.appBundleFiles == 1)
    }

    /// With `untagged: count`, an untagged file stays in the app at its path: a tagged file sent there by `into` is
    /// a destination-conflict.
    @Test func anIntoDestinationThatAnUntaggedFileHoldsConflicts() throws {
        let project = try project("  - {path: Art/Sounds/jump.caf, tags: [audio], into: \".\"}\n")
        try project.file("R/Art/Sounds/jump.caf", "new")
        try project.file("R/jump.caf", "old")
        let result = try project.plan()
        let conflicts = result.diagnostics(.destinationConflict)
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.severity == .error)
        #expect(conflicts.first?.subject == "jump.caf")
        #expect(conflicts.first?.location?.line == 5)
        #expect(conflicts.first?.message.contains("untagged file 'jump.caf' stays in the app") == true)

        // With `untagged: ignore` the untagged file is not the app's: no conflict.
        let ignoring = try self.project(
            "  - {path: Art/Sounds/jump.caf, tags: [audio], into: \".\"}\n", extra: "untagged: ignore\n")
        try ignoring.file("R/Art/Sounds/jump.caf", "new")
        try ignoring.file("R/jump.caf", "old")
        #expect(try ignoring.plan().diagnostics(.destinationConflict).isEmpty)
    }

    /// Two files with one destination are a destination-conflict, never also a normalization-collision: their
    /// names have the same bytes.
    @Test func identicalNamesAreNoNormalizationCollision() throws {
        let project = try project(
            "  - {path: A/caf\u{E9}.txt, tags: [t], into: \".\"}\n  - {path: B/caf\u{E9}.txt, tags: [t], into: \".\"}\n"
        )
        try project.file("R/A/caf\u{E9}.txt", "one")
        try project.file("R/B/caf\u{E9}.txt", "two")
        let result = try project.plan()
        #expect(result.diagnostics(.destinationConflict).count == 1)
        #expect(result.diagnostics(.normalizationCollision).isEmpty)
        #expect(result.diagnostics(.caseCollision).isEmpty)
    }
}
