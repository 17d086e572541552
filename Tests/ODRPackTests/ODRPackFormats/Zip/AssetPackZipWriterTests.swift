import Foundation
import Testing

@testable import ODRPackFormats
@testable import ODRPackPlatform

/// An entry also hashed into its own digest (`add(_:_:size:crc:hashingContent:pieces:)`; a stored one in the same
/// pass as the archive) gives the same archive, byte for byte, as one added from memory unhashed, the archive's SHA-256
/// and the entry's own: for payloads that stay in the writer's 512 KiB buffer, that flush it, and that go straight
/// to the file (1 MiB and more are hashed on the other core while they are written), whole or in uneven pieces.
@Suite struct AssetPackZipWriterTests {
    static let sizes = [0, 1, 100, 300_000, 524_287, 524_288, 700_000, 1_048_576, 3_000_001]

    /// Writes every payload (with a small deflated entry after each) and returns the archive's digest as the writer
    /// reports it, each entry's own digest when `paired`, and the file's bytes.
    func write(_ payloads: [[UInt8]], paired: Bool, in project: TemporaryProject, name: String) throws -> (
        String, [String], Data
    ) {
        let path = project.path(name)
        let descriptor = try SystemCall.createFile(FilePath(path))
        defer { SystemCall.closeFile(descriptor) }
        let writer = try AssetPackZipWriter(
            descriptor: descriptor, path: FilePath(path), entryTime: 946_684_800, level: 4)
        var digests: [String] = []
        for (index, bytes) in payloads.enumerated() {
            try bytes.withUnsafeBytes { raw in
                let crc = CRC32.update(0, raw)
                if paired {
                    let digest = try writer.add(
                        "stored\(index)", .streamed(deflate: false), size: Int64(raw.count), crc: crc,
                        hashingContent: true
                    ) { append in
                        // Odd entries in uneven pieces.
                        let piece = index.isMultiple(of: 2) ? max(raw.count, 1) : 333_333
                        var at = 0
                        while at < raw.count {
                            let count = min(raw.count - at, piece)
                            try append(UnsafeRawBufferPointer(rebasing: raw[at..<(at + count)]))
                            at += count
                        }
                    }
                    digests.append(digest ?? "none")
                } else {
                    try writer.add("stored\(index)", .archived(raw, deflated: false), size: Int64(raw.count), crc: crc)
                }
            }
            let text = Array(String(repeating: "text \(index) ", count: 50).utf8)
            try text.withUnsafeBytes { raw in
                let digest = try writer.add(
                    "text\(index).txt", .streamed(deflate: true), size: Int64(raw.count), crc: CRC32.update(0, raw),
                    hashingContent: paired
                ) { try $0(raw) }
                if let digest { digests.append(digest) }
            }
        }
        let (_, sha256) = try writer.finish()
        return (sha256, digests, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func storedEntriesHashedWithTheArchiveAreTheSameArchive() throws {
        let project = try TemporaryProject()
        let payloads = Self.sizes.enumerated().map { [UInt8](randomBytes($0.element, seed: UInt64($0.offset) + 1)) }
        let (plainDigest, _, plain) = try write(payloads, paired: false, in: project, name: "plain.zip")
        let (pairedDigest, entryDigests, paired) = try write(payloads, paired: true, in: project, name: "paired.zip")
        #expect(paired == plain)
        #expect(pairedDigest == sha256Hex(plain) && plainDigest == sha256Hex(plain))
        let texts = payloads.indices.map { Data(String(repeating: "text \($0) ", count: 50).utf8) }
        #expect(entryDigests == zip(payloads, texts).flatMap { [sha256Hex(Data($0)), sha256Hex($1)] })
    }

    /// Writes entries of every kind the project writes (folders, files with and without a mode, stored, deflated in
    /// memory and streamed, names of 1 to 300 bytes) with the central records spilling past `limit` bytes, and returns
    /// the writer's size and SHA-256 and the file's bytes.
    func writeMany(
        _ count: Int, limit: Int = AssetPackZipWriter.centralMemoryLimit, in project: TemporaryProject, name: String
    ) throws -> (Int64, String, Data) {
        let path = project.path(name)
        let descriptor = try SystemCall.createFile(FilePath(path))
        defer { SystemCall.closeFile(descriptor) }
        let writer = try AssetPackZipWriter(
            descriptor: descriptor, path: FilePath(path), entryTime: 946_684_800, level: 4, centralMemoryLimit: limit)
        for index in 0..<count {
            let folder = "Payload/App.app/W\(index / 100)/" + String(repeating: "n", count: index % 300) + "/"
            if index % 100 == 0 { try writer.add(folder, .folder, mode: index % 200 == 0 ? 0o040755 : nil) }
            let bytes = Array("entry \(index) ".utf8) + randomBytes(index % 50, seed: UInt64(index) + 1)
            try bytes.withUnsafeBytes { raw in
                let crc = CRC32.update(0, raw)
                let name = folder + "f\(index)"
                switch index % 3 {
                case 0:
                    try writer.add(name, .archived(raw, deflated: false), size: Int64(raw.count), crc: crc)
                case 1:
                    try writer.add(
                        name, .streamed(deflate: true), size: Int64(raw.count), crc: crc, mode: 0o100755
                    ) { try $0(raw) }
                default:
                    try writer.add(
                        name, .streamed(deflate: false), size: Int64(raw.count), crc: crc, mode: 0o120777
                    ) { try $0(raw) }
                }
            }
        }
        let (size, sha256) = try writer.finish()
        return (size, sha256, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The central directory spilled to a file past the writer's memory limit gives the archive it gives in memory,
    /// byte for byte (with the archive's SHA-256 and size): a limit of one record spills before every entry, 10,000
    /// bytes every ~60 entries, and 70,000 entries need the zip64 end records (entry count over 65,535).
    @Test(arguments: [(3_000, 1), (3_000, 10_000), (70_000, 1 << 20)])
    func spilledCentralDirectoryIsTheSameArchive(count: Int, limit: Int) throws {
        let project = try TemporaryProject()
        let inMemory = try writeMany(count, limit: Int.max, in: project, name: "memory.zip")
        let spilled = try writeMany(count, limit: limit, in: project, name: "spilled.zip")
        #expect(spilled.2 == inMemory.2)
        #expect(spilled.0 == inMemory.0 && spilled.0 == Int64(inMemory.2.count))
        #expect(spilled.1 == inMemory.1 && spilled.1 == sha256Hex(inMemory.2))
        // Read back by an independent reader, every entry is there.
        let reading = try SystemCall.openForReading(FilePath(project.path("spilled.zip"))).get()
        defer { SystemCall.closeFile(reading) }
        let directory = try ZipCentralDirectory(descriptor: reading, fileSize: UInt64(spilled.0))
        #expect(directory.entries.count == count + (count + 99) / 100)
        // The spill leaves no file beside the archive.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: project.path("")).sorted() == [
                "memory.zip", "spilled.zip",
            ])
    }

    /// A spill that cannot be written (a full disk) or made fails the entry with the writer's own error, naming the
    /// archive and the reason: the caller then removes the unfinished archive as after any write error.
    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full")))
    func spillOnAFullDiskFailsWithTheWritersError() throws {
        let project = try TemporaryProject()
        let path = project.path("full.zip")
        let descriptor = try SystemCall.createFile(FilePath(path))
        defer { SystemCall.closeFile(descriptor) }
        let writer = try AssetPackZipWriter(
            descriptor: descriptor, path: FilePath(path), entryTime: 946_684_800, level: nil, centralMemoryLimit: 1
        ) { SpillFile(descriptor: open("/dev/full", O_RDWR | O_CLOEXEC), path: path) }
        try writer.add("a/", .folder)
        #expect(throws: ODRPackError.call(.named(.write, path), SystemError(ENOSPC))) {
            try writer.add("a/b/", .folder)
        }
        let refusing = try AssetPackZipWriter(
            descriptor: descriptor, path: FilePath(path), entryTime: 946_684_800, level: nil, centralMemoryLimit: 1
        ) { throw ODRPackError.system(.named(.write, path), EACCES) }
        try refusing.add("a/", .folder)
        #expect(throws: ODRPackError.call(.named(.write, path), SystemError(EACCES))) {
            try refusing.add("a/b/", .folder)
        }
    }
}
