import Foundation
import Testing

@testable import ODRPackCore
@testable import ODRPackPlatform

/// What planning holds per file (docs/build-output.md, Bounded: at most ~100 bytes a file beyond its path): one
/// 72-byte record per resource, held once by the resolution and shared by the packs, with one tag array per tag set,
/// and the path's own bytes in the resolution's `PathArena` (not a 96-byte string each).
@Suite struct ResourceMemoryTests {
    @Test func aResolvedResourceIsSeventyTwoBytesBesidesItsPathBytes() {
        // The arena (8) and the path's slot in it (8), FileStamp (40), the shared tags (8), two 32-bit entry numbers.
        #expect(MemoryLayout<PathArena.Slot>.stride == 8)
        #expect(MemoryLayout<FileStamp>.stride == 40)
        #expect(MemoryLayout<ResolvedResource>.stride == 72)
        // The packs hold 4 bytes a file, not a copy of the record.
        #expect(MemoryLayout<PackFiles>.stride == 16)
    }

    @Test func aPlacedResourceKeepsItsSourceEntryNumbersAndSize() {
        let stamp = FileStamp(size: 9, modificationNanoseconds: 1, changeNanoseconds: 2, inode: 3, device: 4)
        let resource = ResolvedResource(path: "a/b.json", size: 7, stamp: stamp, tags: ["t"], firstEntry: nil)
        #expect(resource.size == 7 && resource.stamp.size == 7 && resource.stamp.inode == 3)
        #expect(!resource.isPlaced && resource.source == "a/b.json" && resource.firstEntry == nil)
        var placed = ResolvedResource(
            path: "Into/b.json", source: "a/b.json", size: 7, stamp: stamp, tags: ["t"], firstEntry: nil)
        placed.placedBy = 3
        #expect(placed.isPlaced && placed.path == "Into/b.json" && placed.source == "a/b.json")
        #expect(placed.placedBy == 3 && placed.firstEntry == nil)
        placed.firstEntry = 0
        #expect(placed.isPlaced && placed.placedBy == 3 && placed.firstEntry == 0)
        let given = ResolvedResource(
            path: "x/\u{E9}.png", source: "y/e\u{301}.png", size: 1, stamp: stamp, tags: [], firstEntry: 2)
        // Canonically equal, different bytes: a source of its own, and no entry placed it.
        #expect(given.isPlaced && given.source.utf8.elementsEqual("y/e\u{301}.png".utf8) && given.placedBy == nil)
        #expect(given.path.utf8.elementsEqual("x/\u{E9}.png".utf8) && given.firstEntry == 2)
    }

    /// 20,000 files in three tag sets: the resolution's array is allocated once at its size, the packs view it
    /// instead of copying it, and every file of a tag set shares one tag array.
    @Test func planningHoldsEachResourceOnceAndEachTagSetOnce() throws {
        // tmpfs where there is one: 20,000 files on a busy disk take seconds to make and remove.
        let shm = URL(fileURLWithPath: "/dev/shm")
        let project =
            try FileManager.default.isWritableFile(atPath: shm.path) ? TemporaryProject(in: shm) : TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.memory
            resources-root: Resources
            resources:
              - path: A
                tags: [a]
              - path: B
                tags: [b]
              - glob: "B/x1*"
                tags: [c]
            """)
        for folder in ["A", "B"] {
            let path = project.path("Resources/" + folder)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for index in 0..<10_000 {
                #expect(TestSystem.createFile(rawPath: Array((path + "/x\(index).json").utf8)))
            }
        }
        let result = try project.plan()
        let resources = try #require(result.resolution?.resources)
        // The paths' bytes ("A/x0.json" to "B/x9999.json", 237,780 of them; folders this short are not worth a
        // 4-byte folder number) in chunks that double up to 1 MiB: the bytes and at most the last chunk's spare room,
        // not a string of its own each.
        let pathBytes = resources.map { $0.path.utf8.count }.reduce(0, +)
        #expect(pathBytes == 2 * (10 * 9 + 90 * 10 + 900 * 11 + 9_000 * 12))
        #expect(result.resolution?.pathBytes ?? 0 >= pathBytes)
        #expect(result.resolution?.pathBytes ?? .max <= 2 * pathBytes + 256)
        let plan = try #require(result.plan)
        #expect(resources.count == 20_000)
        // Reserved at the scan's count of regular files: no spare half from growing by doubling.
        #expect(resources.capacity - resources.count < 4096 / MemoryLayout<ResolvedResource>.stride)
        #expect(Set(plan.packs.map(\.tags)) == [["a"], ["b"], ["b", "c"]])
        #expect(plan.packs.map(\.files.count).reduce(0, +) == resources.count)
        for pack in plan.packs {
            #expect(pack.files.sharesStorage(with: resources), "\(pack.tags)")
            // One tag array per tag set, shared by each of its files.
            let storages = Set(pack.files.map { $0.tags.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } })
            #expect(storages.count == 1, "\(pack.tags)")
            #expect(zip(pack.files, pack.files.dropFirst()).allSatisfy { $0.path.precedesByCodePoint($1.path) })
        }
        #expect(plan.packs.first { $0.tags == ["b", "c"] }?.files.count == 1_111)
    }
}
