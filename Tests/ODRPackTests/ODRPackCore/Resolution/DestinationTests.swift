import Foundation
import Testing

@testable import ODRPackCore

/// Where entries with `into` put their files (docs/manifest.md#destinations), and what `untagged: ignore` leaves alone (docs/manifest.md#untagged-files).
@Suite struct DestinationTests {
    func project(_ entries: String, extra: String = "") throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.x\nresources-root: R\n\(extra)resources:\n\(entries)")
        try project.folder("R")
        return project
    }

    func destinations(_ result: PlanResult) -> [String: String] {
        Dictionary(uniqueKeysWithValues: (result.resolution?.resources ?? []).map { ($0.source, $0.path) })
    }

    @Test func aFileGoesIntoTheFolderByItsName() throws {
        let project = try project(
            "  - {path: Docs/manual/document.pdf, tags: [a], into: .}\n  - {path: Docs/cover.png, tags: [a], into: Images/Covers}\n"
        )
        try project.file("R/Docs/manual/document.pdf")
        try project.file("R/Docs/cover.png")
        let result = try project.plan()
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(
            destinations(result) == [
                "Docs/manual/document.pdf": "document.pdf", "Docs/cover.png": "Images/Covers/cover.png",
            ])
    }

    @Test func aFolderKeepsItsNameLikeAFolderReference() throws {
        let project = try project(
            "  - {path: Assets/Scenes/Level2, tags: [level2], into: \"\"}\n  - {path: Assets/Music, tags: [m], into: Data/Audio}\n"
        )
        try project.file("R/Assets/Scenes/Level2/Level2.sks")
        try project.file("R/Assets/Scenes/Level2/tiles/a.png")
        try project.file("R/Assets/Music/theme.caf")
        let result = try project.plan()
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(
            destinations(result) == [
                "Assets/Scenes/Level2/Level2.sks": "Level2/Level2.sks",
                "Assets/Scenes/Level2/tiles/a.png": "Level2/tiles/a.png",
                "Assets/Music/theme.caf": "Data/Audio/Music/theme.caf",
            ])
        // Packs list files by destination, sorted.
        #expect(result.pack(tags: ["level2"])?.files.map(\.path) == ["Level2/Level2.sks", "Level2/tiles/a.png"])
    }

    @Test func aGlobPutsEachFileByItsName() throws {
        let project = try project("  - {glob: \"Audio/**/*.caf\", tags: [audio], into: Sounds}\n")
        try project.file("R/Audio/a/x.caf")
        try project.file("R/Audio/b/c/y.caf")
        try project.file("R/Audio/z.txt")
        let result = try project.plan()
        #expect(destinations(result) == ["Audio/a/x.caf": "Sounds/x.caf", "Audio/b/c/y.caf": "Sounds/y.caf"])
    }

    @Test func entriesWithoutIntoOnlyAddTags() throws {
        let project = try project("  - {path: A/x.png, tags: [a], into: .}\n  - {glob: \"**/*.png\", tags: [b]}\n")
        try project.file("R/A/x.png")
        try project.file("R/B/y.png")
        let result = try project.plan()
        #expect(destinations(result) == ["A/x.png": "x.png", "B/y.png": "B/y.png"])
        #expect(result.pack(tags: ["a", "b"])?.files.map(\.path) == ["x.png"])
    }

    @Test func twoFilesWithOneDestinationNameBothEntries() throws {
        let project = try project(
            "  - {path: A/icon.png, tags: [a], into: .}\n  - {path: B/icon.png, tags: [b], into: .}\n")
        try project.file("R/A/icon.png")
        try project.file("R/B/icon.png")
        let result = try project.plan()
        let conflicts = result.diagnostics(.destinationConflict)
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.severity == .error)
        #expect(conflicts.first?.subject == "icon.png")
        #expect(conflicts.first?.location?.line == 6)
        #expect(conflicts.first?.message.contains("odrpack.yml:5:12") == true)
        #expect(conflicts.first?.message.contains("odrpack.yml:6:12") == true)
    }

    @Test func aPlacedFileMeetingAnUnplacedOneIsAConflict() throws {
        let project = try project("  - {path: A/b.png, tags: [a], into: .}\n  - {path: b.png, tags: [b]}\n")
        try project.file("R/A/b.png")
        try project.file("R/b.png")
        #expect(try project.plan().diagnostics(.destinationConflict).count == 1)
    }

    @Test func oneFileGivenTwoDestinationsIsAConflict() throws {
        let project = try project(
            "  - {path: A/b.png, tags: [a], into: .}\n  - {glob: \"A/*.png\", tags: [a], into: X}\n  - {glob: \"A/*\", tags: [c], into: .}\n"
        )
        try project.file("R/A/b.png")
        let result = try project.plan()
        let conflicts = result.diagnostics(.destinationConflict)
        // The third entry agrees with the first: one conflict, at the second entry.
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.location?.line == 6)
        #expect(conflicts.first?.subject == "A/b.png")
    }

    @Test func intoIsARelativeFolderWithoutDotDot() throws {
        for (value, valid) in [
            ("\".\"", true), ("\"\"", true), ("a/b/", true), ("../x", false), ("a/../../x", false), ("/abs", false),
            ("[x]", false),
        ] {
            let project = try project("  - {path: f, tags: [a], into: \(value)}\n")
            try project.file("R/f")
            let result = try project.plan()
            #expect(result.diagnostics.contains { $0.severity == .error } == !valid, "\(value): \(result.diagnostics)")
        }
    }

    @Test func untaggedIgnoreCountsNothingAndSkipsWhatNoEntryReaches() throws {
        let project = try project(
            "  - {path: Game/Level1, tags: [l1]}\n  - {glob: \"Art/*.png\", tags: [art]}\n", extra: "untagged: ignore\n"
        )
        try project.file("R/Game/Level1/a.json")
        try project.file("R/Game/other.json")
        try project.file("R/Art/x.png")
        try project.file("R/Art/deep/y.png")
        try project.file("R/Elsewhere/z.bin")
        try project.symlink("R/Elsewhere/broken", to: "nothing-here")
        try project.symlink("R/Game/out", to: "/etc/hostname")
        let result = try project.plan()
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.resolution?.resources.map(\.path) == ["Art/x.png", "Game/Level1/a.json"])
        #expect(result.plan?.countsAppBundle == false)
        // The same tree counted: the untagged problems are warnings with their codes (docs/manifest.md#untagged-files).
        try project.manifest(
            "version: 1\nbundle-id: com.example.x\nresources-root: R\nresources:\n  - {path: Game/Level1, tags: [l1]}\n"
        )
        let counted = try project.plan()
        #expect(Set(counted.codes) == ["file-unreadable", "path-outside-root"])
        #expect(counted.diagnostics.allSatisfy { $0.severity == .warning })
        #expect(counted.plan?.appBundleFiles == 4)
    }

    /// `untagged: ignore` walks only into folders an entry can reach, judged by the folders' "/" bytes: a folder
    /// whose name starts with a combining mark is inside `p` (split by Characters it was not, and its file was lost).
    @Test func untaggedIgnoreReachesAFolderStartingWithACombiningMark() throws {
        let project = try project("  - {path: p, tags: [t]}\n", extra: "untagged: ignore\n")
        try project.file("R/p/\u{301}w/v.txt")
        try project.file("R/p/x/z.txt")
        let result = try project.plan()
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(
            result.resolution?.resources.map { Array($0.path.utf8) }
                == ["p/x/z.txt", "p/\u{301}w/v.txt"].map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// A folder no entry can reach is never listed: an unreadable one says nothing with `untagged: ignore`.
    @Test(.enabled(if: getuid() != 0)) func untaggedIgnoreNeverListsUnreachedFolders() throws {
        let project = try project("  - {path: Game, tags: [g]}\n", extra: "untagged: ignore\n")
        try project.file("R/Game/a.json")
        try project.file("R/Locked/b.json")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: project.path("R/Locked"))
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: project.path("R/Locked"))
        }
        #expect(try project.plan().diagnostics.isEmpty)
    }

    @Test func aBuildFolderUnderTheRootIsSkippedWithAWarning() throws {
        let project = try project("  - {path: ., tags: [a]}\n")
        try project.file("R/real.txt")
        try project.file("R/out/.odrpack.lock", "")
        try project.file("R/out/odrpack-manifest.json", "{}")
        let result = try project.plan()
        #expect(result.codes == ["build-folder-skipped"])
        #expect(result.diagnostics.first?.severity == .warning)
        #expect(result.resolution?.resources.map(\.path) == ["real.txt"])
        try project.manifest(
            "version: 1\nbundle-id: com.example.x\nresources-root: R\nresources:\n  - {path: out/odrpack-manifest.json, tags: [a]}\n"
        )
        let named = try project.plan()
        #expect(named.codes == ["build-folder-skipped"])
        #expect(named.diagnostics.first?.severity == .error)
        #expect(named.diagnostics.first?.location?.line == 5)
    }

    @Test func aFolderReachedTwiceThroughLinksIsWalkedOnce() throws {
        let project = try project("  - {path: ., tags: [a]}\n")
        try project.file("R/b/real/f.txt")
        try project.symlink("R/a", to: "b/real")
        let result = try project.plan()
        // "a" comes first in code-point order: the files are there, and "b/real" gets the warning.
        #expect(result.resolution?.resources.map(\.path) == ["a/f.txt"])
        #expect(result.codes == ["symlink-duplicate"])
        #expect(result.diagnostics.first?.subject == "b/real")
    }

    /// Each level of links to the level below doubled the paths: 34 levels took 27 s and 65,536 copies of one file.
    /// The time limit is a hang guard (2^30 paths would never finish); the one resource is the measure.
    @Test(.timeLimit(.minutes(1))) func linksThatDoubleThePathsCostTheFoldersOnDisk() throws {
        let project = try project("  - {path: ., tags: [a]}\n")
        try project.file("R/d0/f.txt")
        for level in 1...30 {
            try project.folder("R/d\(level)")
            try project.symlink("R/d\(level)/x", to: "../d\(level - 1)")
            try project.symlink("R/d\(level)/y", to: "../d\(level - 1)")
        }
        let result = try project.plan()
        #expect(result.resolution?.resources.count == 1)
        #expect(result.diagnostics.allSatisfy { $0.code == .symlinkDuplicate })
    }

    @Test func controlCharactersInATagAreErrors() throws {
        for tag in ["a\\0b", "a\\nb", "a\\tb", "a\\u007Fb"] {
            let project = try project("  - {path: f, tags: [\"\(tag)\"]}\n")
            try project.file("R/f")
            let result = try project.plan()
            #expect(result.codes == ["tag-invalid"], "\(tag)")
            #expect(result.diagnostics.first?.severity == .error)
        }
    }

    /// Incremental builds stay exact when only an `into` changes: the pack whose bytes change is rewritten, the other
    /// is reused, and the folder equals a clean build's, byte for byte.
    @Test func changingOnlyAnIntoRewritesExactlyItsPack() throws {
        let project = try TemporaryProject()
        func manifest(_ into: String) throws {
            try project.manifest(
                "version: 1\nbundle-id: com.example.into\nresources-root: R\nresources:\n  - {path: Sounds, tags: [audio], into: \(into)}\n  - {path: Levels, tags: [levels]}\n"
            )
        }
        try project.file("R/Sounds/jump.caf", "caf")
        try project.file("R/Levels/one.json", "{}")
        try manifest(".")
        func build(_ folder: String) throws -> [String: Any] {
            let output = try CommandRunner.run(
                ["build", "-o", folder, "--url-prefix", "https://x/", "--json"], in: project.root)
            #expect(output.status == 0, "\(output.stderr)")
            return try output.json()["build"] as? [String: Any] ?? [:]
        }
        _ = try build("out")
        try manifest("Data/Audio")
        let second = try build("out")
        #expect((second["written"] as? [String])?.count == 1)
        #expect((second["reused"] as? [String])?.count == 1)
        _ = try build("clean")
        let built = try BuildCommandTests().contents(project.root.appendingPathComponent("out"))
        let clean = try BuildCommandTests().contents(project.root.appendingPathComponent("clean"))
        #expect(built.keys.sorted() == clean.keys.sorted() && built == clean)
        let manifestText = String(
            decoding: try Data(contentsOf: project.root.appendingPathComponent("out/odrpack-manifest.json")),
            as: UTF8.self)
        #expect(
            manifestText.contains(
                "\"path\": \"Data/Audio/Sounds/jump.caf\",\n          \"source\": \"Sounds/jump.caf\""))
        // Nothing changed now: the fast path answers, with nothing written.
        let third = try build("out")
        #expect((third["written"] as? [String])?.isEmpty == true)
    }
}
