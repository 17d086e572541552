import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackFormats

/// verify reads each archive once: the reader hashes the raw bytes as it parses them.
@Suite struct StreamingZipReaderTests {
    /// swift-crypto's, independent of the product's hasher.
    func sha256(_ data: Data) -> String { sha256Hex(data) }

    @Test func theDigestIsTheWholeFilesWhereverParsingStopped() throws {
        let project = try TemporaryProject()
        let bytes = try Data(ZipLimitsTests().smallArchive(in: project, names: ["a/", "a/b.txt", "c.txt"]))
        let path = project.path("small.zip")
        // Read to the end of the central directory.
        let whole = try StreamingZipReader(path: FilePath(path), hashing: true)
        while try whole.nextEntry() != nil { _ = try whole.readData { _ in } }
        #expect(try whole.centralDirectory().count == 3)
        let (size, digest) = try whole.digestToEnd()
        #expect(size == Int64(bytes.count) && digest == sha256(bytes))
        // Stopped by a format error in the middle: the rest is read and hashed in order.
        var broken = bytes
        broken[bytes.count / 2] ^= 0xFF
        broken.append(contentsOf: Array(repeating: 7, count: 3_000_000))
        try broken.write(to: URL(fileURLWithPath: path))
        let partial = try StreamingZipReader(path: FilePath(path), hashing: true)
        _ = try? partial.nextEntry()
        let (brokenSize, brokenDigest) = try partial.digestToEnd()
        #expect(brokenSize == Int64(broken.count) && brokenDigest == sha256(broken))
        // A reader made without hashing reads the file again from its start: the same digest, never a trap.
        let unhashed = try StreamingZipReader(path: FilePath(path))
        _ = try? unhashed.nextEntry()
        let (unhashedSize, unhashedDigest) = try unhashed.digestToEnd()
        #expect(unhashedSize == Int64(broken.count) && unhashedDigest == sha256(broken))
    }

    /// Stored entries are hashed into the archive's digest and their own in one pass: entries that straddle the
    /// reader's 1 MiB buffer, deflated ones (whole and streamed) between them, and a reader stopped by its consumer
    /// mid-entry all give the SHA-256 of exactly their bytes.
    @Test func entryAndArchiveDigestsWhenHashedTogether() throws {
        let project = try TemporaryProject()
        let path = project.path("mixed.zip")
        func noise(_ count: Int) -> [UInt8] { [UInt8](randomBytes(count, seed: UInt64(count))) }
        let text = Array(String(repeating: "compressible text ", count: 400_000).utf8)
        let contents: [(String, [UInt8], Bool)] = [
            ("a.bin", noise(700_001), false), ("b.txt", Array(text.prefix(3_000)), true),
            ("c.bin", noise(1_500_003), false),
            ("d.txt", text, true), ("e.bin", noise(65), false), ("f.bin", [], false),
        ]
        let descriptor = try SystemCall.createFile(FilePath(path))
        let writer = try AssetPackZipWriter(
            descriptor: descriptor, path: FilePath(path), entryTime: 946_684_800, level: 6)
        for (name, bytes, deflate) in contents {
            try bytes.withUnsafeBytes { raw in
                try writer.add(name, .streamed(deflate: deflate), size: Int64(raw.count), crc: CRC32.update(0, raw)) {
                    try $0(raw)
                }
            }
        }
        _ = try writer.finish()
        SystemCall.closeFile(descriptor)
        let archive = try Data(contentsOf: URL(fileURLWithPath: path))

        let reader = try StreamingZipReader(path: FilePath(path), hashing: true)
        for (name, bytes, _) in contents {
            #expect(try reader.nextEntry()?.name == name)
            var hasher = SHA256Hasher()
            let (_, size) = try reader.readData(hashingInto: &hasher) { _ in }
            #expect(size == UInt64(bytes.count))
            #expect(hasher.finalize() == sha256(Data(bytes)), "\(name)")
        }
        #expect(try reader.centralDirectory().count == contents.count)
        #expect(try reader.digestToEnd().sha256 == sha256(archive))

        // The consumer throws in the middle of the large stored entry: the archive's digest is still the file's.
        struct Stop: Error {}
        let stopped = try StreamingZipReader(path: FilePath(path), hashing: true)
        _ = try stopped.nextEntry()
        _ = try stopped.readData { _ in }
        _ = try stopped.nextEntry()
        _ = try stopped.readData { _ in }
        _ = try stopped.nextEntry()
        var seen = 0
        var partial = SHA256Hasher()
        #expect(throws: Stop.self) {
            try stopped.readData(hashingInto: &partial) { piece in
                seen += piece.count
                if seen > 600_000 { throw Stop() }
            }
        }
        #expect(try stopped.digestToEnd().sha256 == sha256(archive))
    }
}
