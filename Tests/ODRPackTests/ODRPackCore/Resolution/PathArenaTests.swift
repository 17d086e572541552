import Foundation
import Testing

@testable import ODRPackCore
@testable import ODRPackPlatform

/// The resolution's paths live in one `PathArena` and are compared by their bytes (docs/performance.md#scale):
/// code-point order, never Swift's canonical `String` equality, and an `into` file's source kept beside its
/// destination.
@Suite struct PathArenaTests {
    static let stamp = FileStamp(size: 1, modificationNanoseconds: 0, changeNanoseconds: 0, inode: 1, device: 1)

    func resource(_ path: String, source: String? = nil, in arena: PathArena) -> ResolvedResource {
        ResolvedResource(path: path, source: source, in: arena, size: 1, stamp: Self.stamp, tags: ["t"], firstEntry: 0)
    }

    @Test func composedAndDecomposedSpellingsAreTwoPathsInByteOrder() {
        let arena = PathArena()
        let composed = resource("x/\u{E9}.json", in: arena)
        let decomposed = resource("x/e\u{301}.json", in: arena)
        // Swift's String equality is canonical: these two are one string to it, and two files on disk.
        #expect("x/\u{E9}.json" == "x/e\u{301}.json")
        #expect(!composed.hasSamePath(as: decomposed) && !decomposed.hasSamePath(as: composed))
        // "e" (0x65) before 0xC3: the decomposed spelling comes first.
        #expect(decomposed.pathPrecedes(composed) && !composed.pathPrecedes(decomposed))
        #expect(!composed.pathPrecedes(composed) && composed.hasSamePath(as: composed))
        #expect(Array(composed.path.utf8) == [0x78, 0x2F, 0xC3, 0xA9, 0x2E, 0x6A, 0x73, 0x6F, 0x6E])
        #expect(Array(decomposed.path.utf8) == [0x78, 0x2F, 0x65, 0xCC, 0x81, 0x2E, 0x6A, 0x73, 0x6F, 0x6E])
    }

    @Test func pathsSortByCodePointWithAPrefixFirst() {
        let arena = PathArena()
        let paths = [
            "a/\u{10FFFF}", "a/z", "\u{1F600}", "a/\u{FF}", "a", "a-b", "a/b", "Z", "a/\u{FFFD}", "",
        ]
        let sorted = paths.map { resource($0, in: arena) }.sorted { $0.pathPrecedes($1) }
        // '-' (0x2D) before '/' (0x2F); U+FFFD (EF BF BD) before U+10FFFF (F4 8F BF BF), unlike UTF-16 order.
        let expected = [
            "", "Z", "a", "a-b", "a/b", "a/z", "a/\u{FF}", "a/\u{FFFD}", "a/\u{10FFFF}", "\u{1F600}",
        ]
        #expect(sorted.map { Array($0.path.utf8) } == expected.map { Array($0.utf8) })
    }

    @Test func placedResourcesKeepTheirSourcesAcrossChunks() {
        let arena = PathArena()
        // Enough paths for many chunks: a slot stays valid as the arena grows.
        let resources = (0..<20_000).map { index in
            index % 3 == 0
                ? resource("Into/\(index).json", source: "levels/f\(index / 1000)/\(index).json", in: arena)
                : resource("levels/f\(index / 1000)/\(index).json", in: arena)
        }
        for (index, resource) in resources.enumerated() {
            let source = "levels/f\(index / 1000)/\(index).json"
            #expect(resource.source.utf8.elementsEqual(source.utf8))
            #expect(resource.isPlaced == (index % 3 == 0))
            #expect(resource.path.utf8.elementsEqual((index % 3 == 0 ? "Into/\(index).json" : source).utf8))
        }
        // A source canonically equal to its destination but of other bytes is a source of its own.
        let given = resource("x/\u{E9}.png", source: "x/e\u{301}.png", in: arena)
        #expect(given.isPlaced && given.source.utf8.elementsEqual("x/e\u{301}.png".utf8))
        #expect(given.path.utf8.elementsEqual("x/\u{E9}.png".utf8))
        let same = resource("x/a.png", source: "x/a.png", in: arena)
        #expect(!same.isPlaced && same.source == "x/a.png")
    }

    /// A file of a folder stored once: its path joined again, compared by its name within the folder and by the
    /// whole path across folders and against paths stored whole.
    @Test func filesOfAFolderStoredOnceKeepTheirPathsAndOrder() {
        let arena = PathArena()
        let levels = arena.addFolder("World01/Levels")
        let other = arena.addFolder("World01/Levels2")
        func filed(_ name: String, _ folder: UInt32) -> ResolvedResource {
            ResolvedResource(name: name, folder: folder, in: arena, size: 3, stamp: Self.stamp, tags: [], firstEntry: 1)
        }
        let composed = filed("\u{E9}.json", levels)
        let decomposed = filed("e\u{301}.json", levels)
        let later = filed("a.json", other)
        let whole = resource("World01/Levels/f.json", in: arena)
        #expect(composed.path.utf8.elementsEqual("World01/Levels/\u{E9}.json".utf8))
        #expect(composed.source.utf8.elementsEqual(composed.path.utf8) && !composed.isPlaced)
        #expect(decomposed.pathPrecedes(composed) && !composed.pathPrecedes(decomposed))
        #expect(!composed.hasSamePath(as: decomposed))
        // "World01/Levels/" ('/' 0x2F) before "World01/Levels2" ('2' 0x32), whatever the names.
        #expect(composed.pathPrecedes(later) && !later.pathPrecedes(composed))
        #expect(whole.pathPrecedes(composed) && decomposed.pathPrecedes(whole) && !whole.pathPrecedes(decomposed))
        #expect(whole.hasSamePath(as: resource("World01/Levels/f.json", in: PathArena())))
        #expect(filed("f.json", levels).hasSamePath(as: whole) && composed.size == 3 && composed.firstEntry == 1)
        var placed = filed("g.json", levels)
        placed.placedBy = 1 << 40
        #expect(placed.placedBy == 1 << 29 && placed.path == "World01/Levels/g.json")
    }

    @Test func aPathLongerThanAChunkHasAChunkOfItsOwn() {
        let arena = PathArena()
        let long = String(repeating: "a/", count: PathArena.chunkLimit / 2 + 3)
        let justUnder = String(repeating: "b", count: 0xF_FFFE)
        let small = resource("s.json", in: arena)
        let huge = resource(long, source: "src/" + long, in: arena)
        let under = resource(justUnder, in: arena)
        #expect(huge.path.utf8.count == long.utf8.count && huge.path == long && huge.source == "src/" + long)
        #expect(under.path.utf8.count == 0xF_FFFE && small.path == "s.json")
    }

    /// What a path costs: its bytes, plus at most the spare room of one chunk (the record is 72 bytes,
    /// `ResourceMemoryTests`).
    @Test func theArenaHoldsThePathBytesAndLittleMore() {
        let arena = PathArena()
        let path = String(repeating: "p", count: 41)
        for _ in 0..<100_000 { _ = arena.append(path) }
        #expect(arena.allocatedBytes >= 41 * 100_000)
        #expect(arena.allocatedBytes <= 41 * 100_000 + PathArena.chunkLimit)
    }

    /// A resolution sorts by bytes (names a folder link brought out of order, destinations with `into`), and its
    /// placed files keep their sources.
    @Test func aResolutionOrdersByBytesAndKeepsIntoSources() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.arena
            resources-root: R
            resources:
              - {path: Levels, tags: [a]}
              - {path: Bonus, tags: [b], into: Levels}
            """)
        try project.folder("R/Levels/Sub")
        try project.folder("R/Bonus")
        // Files before and after a subfolder, which the walk takes between them: the folder is stored twice.
        for name in ["A.json", "Sub/\u{E9}.json", "Sub/e\u{301}.json", "z.json", "\u{FF}.json"] {
            #expect(TestSystem.createFile(rawPath: Array(project.path("R/Levels/" + name).utf8)))
        }
        #expect(TestSystem.createFile(rawPath: Array(project.path("R/Bonus/m.json").utf8)))
        let result = try project.plan()
        let resources = try #require(result.resolution?.resources)
        let paths = resources.map { Array($0.path.utf8) }
        #expect(
            paths
                == [
                    "Levels/A.json", "Levels/Bonus/m.json", "Levels/Sub/e\u{301}.json", "Levels/Sub/\u{E9}.json",
                    "Levels/z.json", "Levels/\u{FF}.json",
                ].map { Array($0.utf8) })
        #expect(
            resources.map { Array($0.source.utf8) }
                == paths.enumerated().map { $0 == 1 ? Array("Bonus/m.json".utf8) : $1 })
        let placed = try #require(resources.first { $0.isPlaced })
        #expect(placed.source == "Bonus/m.json" && placed.path == "Levels/Bonus/m.json" && placed.placedBy == 1)
        #expect(resources.filter(\.isPlaced).count == 1)
        // No normalization collision is a destination conflict: the bytes differ.
        #expect(result.diagnostics.filter { $0.code == .destinationConflict }.isEmpty)
    }
}
