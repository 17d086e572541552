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
        let descriptor = try SystemCall.createFile(path)
        defer { SystemCall.closeFile(descriptor) }
        let writer = try AssetPackZipWriter(descriptor: descriptor, path: path, entryTime: 946_684_800, level: 4)
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
}
