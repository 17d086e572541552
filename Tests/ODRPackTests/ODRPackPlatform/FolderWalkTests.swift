import Foundation
import Testing

@testable import ODRPackPlatform

/// `FolderWalk`: each folder before what it holds, siblings in code-point order (with "/" after a folder's name in a
/// zip's order), links reported and never followed, and a folder it cannot list is an error, not an empty folder.
@Suite struct FolderWalkTests {
    func project() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.file("a/x")
        try project.file("a-")
        try project.file("a.txt")
        try project.file(".hidden/y")
        try FileManager.default.createSymbolicLink(atPath: project.path("l"), withDestinationPath: "a")
        return project
    }

    @Test func foldersComeFirstThenSiblingsInCodePointOrder() throws {
        let project = try project()
        let walked = try FolderWalk.entries(under: FilePath(project.path("")))
        #expect(walked.map(\.path) == [".hidden", ".hidden/y", "a", "a/x", "a-", "a.txt", "l"])
        #expect(walked.first { $0.path == "l" }?.status.kind == .symbolicLink)
    }

    /// "-" (2D) and "." (2E) come before "/" (2F): in a zip's order the folder "a" follows "a-" and "a.txt".
    @Test func slashedFoldersFollowTheirNamesPrefixedSiblings() throws {
        let project = try project()
        let walked = try FolderWalk.entries(under: FilePath(project.path("")), slashedFolders: true)
        #expect(walked.map(\.path) == [".hidden", ".hidden/y", "a-", "a.txt", "a", "a/x", "l"])
    }

    @Test func skippedNamesAndUnenteredFoldersLeaveOutWhatTheyHold() throws {
        let project = try project()
        let walked = try FolderWalk.entries(
            under: FilePath(project.path("")), skipping: { $0.hasPrefix(".") }, entering: { $0.name != "a" })
        #expect(walked.map(\.path) == ["a", "a-", "a.txt", "l"])
    }

    @Test func aFolderThatCannotBeListedIsAnError() throws {
        let project = try TemporaryProject()
        #expect(throws: ODRPackError.self) { try FolderWalk.entries(under: FilePath(project.path("missing"))) }
    }

    /// The walk that visits as it goes (what an IPA zips from) gives a zip's order: every path's bytes in order, a
    /// folder as "name/", so no sort of the whole list is needed. Names that trip naive orders: "a-b", "a.b" and "a0"
    /// around the folder "a" ("-" and "." sort before "/", "0" after it), a folder and a file that share a prefix,
    /// non-ASCII names (bytes, not Swift's canonical order), and the composed and decomposed "é" as two names.
    @Test func walkVisitsInTheByteOrderOfSlashedPaths() throws {
        let project = try TemporaryProject()
        let composed = "\u{E9}"
        let decomposed = "e\u{301}"
        for path in [
            "a/x", "a/b/c", "a-b", "a.b", "a0", "a/a-", "a/a/z", "ab/y", "Z", "~", "\u{FF21}", "\u{1F600}/f",
            composed + "/f", decomposed + "/g", "f" + composed, "f" + decomposed, "e/f", "e0", "e-",
        ] {
            try project.file(path)
        }
        try FileManager.default.createSymbolicLink(atPath: project.path("a/l"), withDestinationPath: "x")
        let root = project.path("")
        var visited: [FolderWalk.Entry] = []
        try FolderWalk.walk(under: FilePath(root), slashedFolders: true) { visited.append($0) }
        // The paths' bytes, folders with a final "/", sorted by their bytes: the order a zip lists them in.
        let expected = try FileManager.default.subpathsOfDirectory(atPath: root).map { path -> [UInt8] in
            let isFolder = SystemCall.status(FilePath(root).joined(path), followingLinks: false)?.kind == .directory
            return Array(path.utf8) + (isFolder ? [UInt8(ascii: "/")] : [])
        }.sorted { $0.lexicographicallyPrecedes($1) }
        let walked = visited.map { Array($0.path.utf8) + ($0.status.kind == .directory ? [UInt8(ascii: "/")] : []) }
        #expect(walked == expected)
        #expect(walked.count == 28)
        #expect(walked.contains(Array(composed.utf8) + [0x2F]) && walked.contains(Array(decomposed.utf8) + [0x2F]))
        // The whole list is the walk's order.
        let listed = try FolderWalk.entries(under: FilePath(root), slashedFolders: true)
        #expect(listed.map { Array($0.path.utf8) } == visited.map { Array($0.path.utf8) })
    }

    @Test func anErrorFromTheVisitEndsTheWalk() throws {
        let project = try project()
        var visited: [String] = []
        #expect(throws: ODRPackError.usage("stop")) {
            try FolderWalk.walk(under: FilePath(project.path(""))) { entry in
                visited.append(entry.path)
                if entry.path == "a" { throw ODRPackError.usage("stop") }
            }
        }
        #expect(visited == [".hidden", ".hidden/y", "a"])
    }

    /// Names that are not UTF-8 (docs/architecture.md#paths) are walked as their bytes: reached (`file(under:)`), in the
    /// byte order of their paths, with `pathBytes` exact, in a walked folder whose own name is not UTF-8 either.
    @Test func namesThatAreNotUTF8AreWalkedAsTheirBytes() throws {
        let project = try TemporaryProject()
        let root = RawNames.path(project.root, RawNames.bytes("N%"))
        defer { RawNames.remove(root) }
        let files = [
            RawNames.bytes("caf%.txt"), RawNames.bytes("d%/x", 0xFF), RawNames.bytes("a"), [0x63, 0x61, 0x66],
        ]
        for file in files { try RawNames.write(RawNames.path(project.root, RawNames.bytes("N%/") + file), "x") }
        var visited: [FolderWalk.Entry] = []
        try FolderWalk.walk(under: root, slashedFolders: true) { visited.append($0) }
        let expected = [
            RawNames.bytes("a"), [0x63, 0x61, 0x66], RawNames.bytes("caf%.txt"), RawNames.bytes("d%/", 0xFF),
            RawNames.bytes("d%/x", 0xFF),
        ]
        #expect(visited.map { $0.pathBytes + ($0.status.kind == .directory ? [0x2F] : []) } == expected)
        #expect(visited.map(\.path) == ["a", "caf", "caf\\xe9.txt", "d\\xff", "d\\xff/x"])
        for entry in visited where entry.status.kind == .regular {
            #expect(SystemCall.status(entry.file(under: root))?.stamp.size == 1)
        }
    }
}
