import Testing

@testable import ODRPackCore
@testable import ODRPackPlatform

/// Paths are split and compared by bytes: a "/" followed by a combining mark is one Character with it, and Swift's
/// String equality takes an NFD spelling for the NFC one.
@Suite struct SlashSeparatedTests {
    @Test func aSlashBeforeACombiningMarkStillSeparates() {
        let path = "p/x/\u{301}y/z.txt"
        #expect(path.split(separator: "/").count == 3)  // what the Character split saw
        #expect(path.slashSeparated().map { Array($0.utf8) } == ["p", "x", "\u{301}y", "z.txt"].map { Array($0.utf8) })
        #expect("../\u{301}x".slashSeparated().contains { $0 == ".." })
        #expect("/a//b/".slashSeparated(omittingEmptySubsequences: false).map(String.init) == ["", "a", "", "b", ""])
        let parts = path.splitAtLastSlash()
        #expect(parts.map { Array($0.folder.utf8) } == Array("p/x/\u{301}y".utf8))
        #expect(parts.map { String($0.name) } == "z.txt")
        let folder = "a/\u{301}b".splitAtLastSlash()
        #expect(folder.map { String($0.folder) } == "a" && folder.map { Array($0.name.utf8) } == Array("\u{301}b".utf8))
        #expect("plain".splitAtLastSlash() == nil)
        #expect(TemporaryName.path(beside: "/o/\u{301}x").hasPrefix("/o/"))
    }

    @Test func aFolderIsInsideOnlyItsOwnBytes() {
        let composed = "/w/App\u{E9}.app"
        let decomposed = "/w/Appe\u{301}.app"
        #expect(composed == decomposed)  // why bytes: Swift calls them equal
        #expect(RelativePath.absolutePath(composed + "/sub/y.txt", isInside: composed))
        #expect(!RelativePath.absolutePath(decomposed + "/sub/y.txt", isInside: composed))
        #expect(!RelativePath.absolutePath(decomposed, isInside: composed))
        #expect(RelativePath.absolutePath("/x", isInside: "/"))
    }
}
