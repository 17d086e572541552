import Foundation
import Testing

@testable import ODRPackBuildFormat
@testable import ODRPackCore
@testable import ODRPackPlatform

/// A pack's entries in archive order (docs/build-output.md): each folder before what it holds, everything else in
/// code-point order, Info.plist among them; 4 bytes an entry until read.
@Suite struct PackEntriesTests {
    static let stamp = FileStamp(size: 0, modificationNanoseconds: 0, changeNanoseconds: 0, inode: 1, device: 1)

    func pack(_ files: [(path: String, source: String?, size: Int64)]) -> AssetPack {
        let arena = PathArena()
        let resources = files.map {
            ResolvedResource(
                path: $0.path, source: $0.source, in: arena, size: $0.size, stamp: Self.stamp, tags: ["t"],
                firstEntry: 0)
        }
        return AssetPack(
            id: "com.example.t", fileName: "t.assetpack", tags: ["t"], category: .onDemand, priority: nil,
            size: 0, files: PackFiles(resources), firstEntry: 0)
    }

    @Test func foldersComeBeforeTheirFilesAndInfoPlistInCodePointOrder() {
        let known = FileDigest(sha256: String(repeating: "ab", count: 32), crc32: 7)
        let entries = PackEntries(
            of: pack([
                ("Apple.txt", nil, 1), ("J/k/l.txt", "src/l.txt", 2), ("J/m.txt", nil, 3), ("top.txt", nil, 4),
                ("x/y/z.txt", nil, 5),
            ]),
            infoPlist: [1, 2, 3, 4, 5, 6], rootPath: "/root", known: [nil, known])
        #expect(
            entries.map(\.name) == [
                "Apple.txt", "Info.plist", "J/", "J/k/", "J/k/l.txt", "J/m.txt", "top.txt", "x/", "x/y/", "x/y/z.txt",
            ])
        #expect(Array(entries.sizes) == [1, 6, 0, 0, 2, 3, 4, 0, 0, 5])
        #expect(Array(entries.sizes) == entries.map(\.size))
        #expect(entries.indices.filter(entries.isFile(at:)) == [0, 4, 5, 6, 9])
        // The placed file is read at its source; the cache's digest goes with the file it vouches for.
        guard case .file(let location, 2, _, let digest) = entries[4].content else {
            Issue.record("J/k/l.txt is a file entry")
            return
        }
        #expect(location.path == "/root/src/l.txt" && digest == known)
        guard case .file(let unplaced, _, _, nil) = entries[5].content else {
            Issue.record("J/m.txt is a file entry the cache does not know")
            return
        }
        #expect(unplaced.path == "/root/J/m.txt")
    }

    /// Folders compare by bytes: a composed and a decomposed folder name next to each other are two folders, each
    /// with its entry (Swift's canonical `==` would take them for one and leave the second without its folder).
    @Test func composedAndDecomposedFoldersAreTwoFolders() {
        let entries = PackEntries(
            of: pack([("e\u{301}/1.txt", nil, 1), ("\u{E9}/2.txt", nil, 1), ("\u{E9}/\u{FF}/3.txt", nil, 1)]),
            infoPlist: [], rootPath: "/r", known: [])
        #expect(
            entries.map { Array($0.name.utf8) }
                == [
                    "Info.plist", "e\u{301}/", "e\u{301}/1.txt", "\u{E9}/", "\u{E9}/2.txt", "\u{E9}/\u{FF}/",
                    "\u{E9}/\u{FF}/3.txt",
                ].map { Array($0.utf8) })
    }

    @Test func aPackOfTopLevelFilesHasNoFolders() {
        let entries = PackEntries(
            of: pack([("A", nil, 1), ("Info.plist.bak", nil, 1), ("z", nil, 1)]), infoPlist: [], rootPath: "/r",
            known: [])
        #expect(entries.map(\.name) == ["A", "Info.plist", "Info.plist.bak", "z"])
        let empty = PackEntries(of: pack([]), infoPlist: [9], rootPath: "/r", known: [])
        #expect(empty.map(\.name) == ["Info.plist"] && Array(empty.sizes) == [1])
    }

    /// A folder whose name starts with a combining mark (U+0301 after the slash) still has the folders above it: split
    /// by Characters, "/" and the mark were one, and `p/x/` was left out (and `--layout folder` could not make it).
    @Test func aFolderStartingWithACombiningMarkKeepsItsParents() {
        let entries = PackEntries(
            of: pack([("p/x/\u{301}y/z.txt", nil, 1)]), infoPlist: [1], rootPath: "/root", known: [])
        #expect(
            entries.map { Array($0.name.utf8) }
                == ["Info.plist", "p/", "p/x/", "p/x/\u{301}y/", "p/x/\u{301}y/z.txt"].map { Array($0.utf8) })
    }
}
