import Foundation
import Testing

@testable import ODRPackPlatform

/// The one metadata pass every plan and build starts with, and the fingerprint the up-to-date check compares.
@Suite struct FileTreeScannerTests {
    func names(_ directory: FileTree.Directory) -> [String] {
        (0..<directory.count).map { String(decoding: directory.name($0), as: UTF8.self) }
    }

    func fingerprint(_ project: TemporaryProject) -> String? {
        FileTreeScanner(jobs: 2).scan(project.path("R")).fingerprint
    }

    @Test func aBigFolderIsReadWholeAndSortedByCodePoint() throws {
        let project = try TemporaryProject()
        // More entries than one stat chunk, in an order that a locale-aware sort would change.
        let count = FileTreeScanner.chunk * 2 + 7
        for index in 0..<count {
            try project.file("R/Many/f\(count - index).bin", String(repeating: "x", count: index % 5))
        }
        try project.file("R/b.txt")
        try project.file("R/B.txt")
        try project.file("R/é.txt")
        try project.file("R/a.b/c")
        try project.file("R/a/b")
        let tree = FileTreeScanner(jobs: 2).scan(project.path("R")).sortedByName()
        let root = tree.directories[0]
        // A folder sorts as its name plus "/", so "a.b" (whose paths start "a.b/") comes before "a" ("a/").
        #expect(names(root) == ["B.txt", "Many", "a.b", "a", "b.txt", "é.txt"])
        let many = tree.directories[root.entries[1].child]
        #expect(many.count == count)
        #expect(names(many) == names(many).sorted { $0.precedesByCodePoint($1) })
        for position in 0..<many.count {
            let name = names(many)[position]
            let index = Int(name.dropFirst().dropLast(4))!
            #expect(many.entries[position].stamp.size == Int64((count - index) % 5))
            #expect(FileStatus.Kind(mode: many.entries[position].mode) == .regular)
        }
        // The fingerprint is taken before sorting and does not depend on how the threads shared the chunks.
        let fingerprint = try #require(tree.fingerprint)
        #expect(FileTreeScanner(jobs: 1).scan(project.path("R")).fingerprint == fingerprint)
        try project.file("R/Many/f1.bin", "grown")
        #expect(FileTreeScanner(jobs: 2).scan(project.path("R")).fingerprint != fingerprint)
    }

    /// Names around the 16 bytes the sort compares as integers first (a folder's `/` the 16th byte or past it),
    /// sharing long starts, with UTF-8 past ASCII: the order is that of each name with `/` after a folder's.
    @Test func namesSortByCodePointAcrossTheSixteenByteKeys() throws {
        let project = try TemporaryProject()
        let stems = [
            "a", "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmnop.x", "abcdefghijklmnopé",
            "abcdefghijklmnopqrstuvwxyz-1", "abcdefghijklmnopqrstuvwxyz-2", "abcdefghijklmnopqrstuvwxyz",
            "abcdefghijklmn-",
            "abcdefghijklmn.", "abcdefghijklmn0", "é", "éé", "\u{1F3AE}", "Z", "abcdefghijklmno.", "abcdefghijklmno0",
        ]
        // Every other name is a folder (its key gains a `/`): "abcdefghijklmno" is one, between "…o." and "…o0".
        for (index, stem) in stems.enumerated() {
            try project.file(index % 2 == 0 ? "R/" + stem : "R/" + stem + "/inner")
        }
        let root = FileTreeScanner(jobs: 2).scan(project.path("R")).sortedByName().directories[0]
        let keyed = (0..<root.count).map { position in
            names(root)[position] + (FileStatus.Kind(mode: root.entries[position].mode) == .directory ? "/" : "")
        }
        #expect(keyed == keyed.sorted { $0.precedesByCodePoint($1) })
        #expect(root.count == stems.count)
    }

    @Test func theFingerprintChangesWithEveryChangeThatMatters() throws {
        let project = try TemporaryProject()
        try project.file("R/Level1/scene.json", "{\"tile\": 1}")
        try project.file("R/Level1/music.caf", "abc")
        try project.file("R/UI/menu.json", "{}")
        let first = try #require(fingerprint(project))
        #expect(fingerprint(project) == first)

        var seen = [first]
        func expectNew(_ what: Comment) {
            let now = fingerprint(project)
            #expect(now != nil && !seen.contains(now!), what)
            if let now { seen.append(now) }
        }
        // Same size, same modification time: the change time still moves.
        let path = project.path("R/Level1/music.caf")
        try TestSystem.keepingTimes(of: path) { try project.file("R/Level1/music.caf", "abd") }
        expectNew("same-size edit with the old modification time")
        try project.file("R/UI/new.json", "{}")
        expectNew("a new file")
        try project.folder("R/Empty")
        expectNew("a new empty folder")
        try FileManager.default.moveItem(
            atPath: project.path("R/UI/new.json"), toPath: project.path("R/UI/renamed.json"))
        expectNew("a rename")
        TestSystem.setMode(project.path("R/UI/menu.json"), 0o600)
        expectNew("a mode change")
        try FileManager.default.removeItem(atPath: project.path("R/Empty"))
        expectNew("a removed folder")
    }

    @Test func gitIsNotEnteredAndLinksTurnTheFingerprintOff() throws {
        let project = try TemporaryProject()
        try project.file("R/a.json")
        try project.file("R/.git/HEAD", "ref: main")
        let first = try #require(fingerprint(project))
        try project.file("R/.git/index", "changed all the time")
        try project.file("R/.git/objects/ab/cdef", "x")
        #expect(fingerprint(project) == first)
        let tree = FileTreeScanner(jobs: 2).scan(project.path("R"))
        #expect(tree.directories.count == 1)

        try project.symlink("R/link.json", to: "a.json")
        #expect(fingerprint(project) == nil)
    }

    @Test func anUnreadableRootIsAnError() {
        let tree = FileTreeScanner(jobs: 2).scan("/nonexistent-odrpack-\(UUID().uuidString)")
        #expect(tree.directories[0].error == ENOENT)
        #expect(tree.fingerprint == nil)
    }
}
