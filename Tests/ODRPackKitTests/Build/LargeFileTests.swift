import Foundation
import Testing
@testable import ODRPackKit

/// Slow (about a minute): a pack over 4 GiB needs zip64. The file is sparse, so the test writes no input gigabytes.
@Suite struct LargeFileTests {
    @Test func aFileOverFourGiBMakesAValidZip64Pack() throws {
        let project = try TemporaryProject()
        let size: Int64 = (1 << 32) + 1_048_577
        try project.manifest("""
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
        let output = try CommandRunner.run(["build", "-o", "out", "--compression", "store", "--json"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        let archive = try #require(try FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources")).first)
        let path = project.path("out/OnDemandResources/" + archive)
        let directory = try ZipDirectory(path: path)
        let entries = directory.entries
        #expect(entries.map(\.name) == ["META-INF/", "META-INF/com.apple.ZipMetadata.plist", "Info.plist", "huge.bin", "small.txt"])
        // zip64 only where a number needs it: huge.bin's sizes (in its local header), small.txt's offset (central only).
        #expect(directory.locals.map(\.extraIDs) == [[], [], [], [1], []])
        #expect(entries.map { $0.extraLength > 0 } == [false, false, false, true, true])
        #expect(entries.last?.offset ?? 0 > UInt64(size))
        #expect(directory.locals.allSatisfy { $0.flags & 0x8 == 0 })
        #expect(entries.first { $0.name == "huge.bin" }?.size == UInt64(size))
        #expect(entries.first { $0.name == "huge.bin" }?.compressedSize == UInt64(size))
        // libarchive reads it back front to back through the local headers, and verify checks every hash.
        let reader = try ZipArchiveReader(path: path, streaming: true)
        var sizes: [String: Int64] = [:]
        while let name = try reader.nextEntry() { sizes[name] = try reader.readData { _ in } }
        #expect(sizes["huge.bin"] == size && sizes["small.txt"] == 17)
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
    }
}
