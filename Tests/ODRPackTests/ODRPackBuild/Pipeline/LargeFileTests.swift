import Foundation
import Testing

@testable import ODRPackBuildFormat

/// Slow (about a minute): a pack over 4 GiB needs zip64. The file is sparse, so the test writes no input gigabytes.
/// Full level only: by default ZipHeadersTests proves the zip64 fields and records at small sizes.
@Suite(.fullLevel, .tags(.slow)) struct LargeFileTests {
    @Test func aFileOverFourGiBMakesAValidZip64Pack() throws {
        let project = try TemporaryProject()
        let size: Int64 = (1 << 32) + 1_048_577
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.big
            resources-root: R
            profile: ios18
            resources:
              - {path: huge.bin, tags: [big]}
              - {path: small.txt, tags: [big]}
            """)
        try project.sparseFile("R/huge.bin", size: size)
        try project.file("R/small.txt", "after the big one")
        let output = try CommandRunner.run(
            ["build", "-o", "out", "--compression", "store", "--json"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        let archive = try #require(
            try FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources")).first)
        let path = project.path("out/OnDemandResources/" + archive)
        let directory = try ZipDirectory(path: path)
        let entries = directory.entries
        #expect(
            entries.map(\.name) == [
                "META-INF/", "META-INF/com.apple.ZipMetadata.plist", "Info.plist", "huge.bin", "small.txt",
            ])
        // zip64 only where a number needs it: huge.bin's sizes (in its local header), small.txt's offset (central only).
        #expect(directory.locals.map(\.extraIDs) == [[], [], [], [1], []])
        #expect(entries.map { $0.extraLength > 0 } == [false, false, false, true, true])
        #expect(entries.last?.offset ?? 0 > UInt64(size))
        #expect(directory.locals.allSatisfy { $0.flags & 0x8 == 0 })
        #expect(entries.first { $0.name == "huge.bin" }?.size == UInt64(size))
        #expect(entries.first { $0.name == "huge.bin" }?.compressedSize == UInt64(size))
        // What the next build reads to copy unchanged entries: the zip64 numbers, from the end.
        let central = try ZipCentralDirectoryTests().read(path)
        #expect(central.entries == ZipCentralDirectoryTests().entries(directory))
        #expect(central.entries.last?.headerOffset ?? 0 > UInt64(size))
        // libarchive reads it back front to back through the local headers, and verify checks every hash.
        let reader = try ZipArchiveReader(path: path, streaming: true)
        var sizes: [String: Int64] = [:]
        while let name = try reader.nextEntry() { sizes[name] = try reader.readData { _ in } }
        #expect(sizes["huge.bin"] == size && sizes["small.txt"] == 17)
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
    }

    /// Deflated files just under 4 GiB: the compressed size is known only after the data, so the writer must still end
    /// with a local header that has zip64 exactly when a size needs it (one rule with verify). 0xFF00_0000 was once
    /// given a zip64 field it did not need; 0xFFFF_FFFE is where zlib's bound passes 32 bits, so the field is
    /// reserved and then dropped.
    @Test(arguments: [Int64(0xFF00_0000), Int64(0xFFFF_FFFE)])
    func aDeflatedFileJustUnderFourGiBHasNoZip64Field(size: Int64) throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.big
            resources-root: R
            profile: ios18
            resources:
              - {path: ., tags: [big]}
            """)
        try project.sparseFile("R/almost.bin", size: size)
        try project.file("R/tail.txt", "after it")
        let output = try CommandRunner.run(
            ["build", "-o", "out", "--compression", "deflate", "--level", "1"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        let archive = try #require(
            try FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources")).first)
        let directory = try ZipDirectory(path: project.path("out/OnDemandResources/" + archive))
        #expect(
            directory.entries.map(\.name) == [
                "META-INF/", "META-INF/com.apple.ZipMetadata.plist", "Info.plist", "almost.bin", "tail.txt",
            ])
        #expect(directory.locals.map(\.extraIDs) == [[], [], [], [], []])
        let entry = try #require(directory.entries.first { $0.name == "almost.bin" })
        #expect(entry.size == UInt64(size) && entry.compressedSize < 100_000_000 && entry.extraLength == 0)
        let verify = try CommandRunner.run(["verify", "out"], in: project.root)
        #expect(verify.status == 0, "\(verify.stderr)")
    }
}
