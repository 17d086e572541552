import Foundation
import Testing

@testable import ODRPackPlatform

/// A source file is read as exactly the bytes planning saw: the end of the file is where a short read stops (no
/// further read that returns nothing), and a file that grew, shrank or was rewritten is a "changed" error.
@Suite struct SourceFileTests {
    private func isChanged(_ error: any Error) -> Bool {
        if case ODRPackError.changed = error { return true }
        return false
    }

    @Test(arguments: [0, 1, 71, 4096, 65_537])
    func aWholeFileIsItsBytes(size: Int) throws {
        let project = try TemporaryProject()
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: project.path("level.json")))
        let file = try SourceFile(
            path: FilePath(project.path("level.json")), name: "level.json", expected: nil, size: Int64(size))
        defer { file.close() }
        let buffer = ReadBuffer(size: 1 << 20)
        // The buffer object owns the memory: it must outlive the reads into its bytes.
        defer { withExtendedLifetime(buffer) {} }
        #expect(Array(try file.readWhole(into: buffer.bytes)) == bytes)
        try file.checkUnchanged()
    }

    /// Chunks of a buffer smaller than the file: each full, the last short, in order, and exactly the file.
    @Test func streamedChunksAreTheFileInOrder() throws {
        let project = try TemporaryProject()
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
        try Data(bytes).write(to: URL(fileURLWithPath: project.path("media.bin")))
        let file = try SourceFile(
            path: FilePath(project.path("media.bin")), name: "media.bin", expected: nil, size: 10_000)
        defer { file.close() }
        let buffer = ReadBuffer(size: 4096)
        var chunks: [[UInt8]] = []
        defer { withExtendedLifetime(buffer) {} }
        try file.stream(into: buffer.bytes) { chunks.append(Array($0)) }
        #expect(chunks.map(\.count) == [4096, 4096, 1808])
        #expect(Array(chunks.joined()) == bytes)
    }

    /// A file exactly the buffer's size: no short read tells the end, so one more read must return nothing.
    @Test func aFileOfExactlyTheBuffersSizeEndsThere() throws {
        let project = try TemporaryProject()
        try Data(repeating: 9, count: 4096).write(to: URL(fileURLWithPath: project.path("block.bin")))
        let file = try SourceFile(
            path: FilePath(project.path("block.bin")), name: "block.bin", expected: nil, size: 4096)
        defer { file.close() }
        var total = 0
        let buffer = ReadBuffer(size: 4096)
        defer { withExtendedLifetime(buffer) {} }
        try file.stream(into: buffer.bytes) { total += $0.count }
        #expect(total == 4096)
    }

    @Test func aFileThatGrewAfterItWasOpenedIsChanged() throws {
        let project = try TemporaryProject()
        let url = URL(fileURLWithPath: project.path("level.json"))
        try Data("{\"level\": 1}".utf8).write(to: url)
        let file = try SourceFile(path: FilePath(url.path), name: "level.json", expected: nil, size: 12)
        defer { file.close() }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(" ".utf8))
        try handle.close()
        let buffer = ReadBuffer(size: 1 << 20)
        defer { withExtendedLifetime(buffer) {} }
        #expect { _ = try file.readWhole(into: buffer.bytes) } throws: { isChanged($0) }
    }

    @Test func aFileThatShrankAfterItWasOpenedIsChanged() throws {
        let project = try TemporaryProject()
        let url = URL(fileURLWithPath: project.path("level.json"))
        try Data("{\"level\": 1}".utf8).write(to: url)
        let file = try SourceFile(path: FilePath(url.path), name: "level.json", expected: nil, size: 12)
        defer { file.close() }
        #expect(truncate(url.path, 5) == 0)
        let buffer = ReadBuffer(size: 1 << 20)
        defer { withExtendedLifetime(buffer) {} }
        #expect { _ = try file.readWhole(into: buffer.bytes) } throws: { isChanged($0) }
    }

    @Test func aSizeOtherThanPlannedIsChangedAtOpen() throws {
        let project = try TemporaryProject()
        try Data("12345".utf8).write(to: URL(fileURLWithPath: project.path("a.txt")))
        let path = FilePath(project.path("a.txt"))
        #expect { _ = try SourceFile(path: path, name: "a.txt", expected: nil, size: 4) } throws: { isChanged($0) }
    }
}
