import Foundation
import Testing
@testable import ODRPackFormats
@testable import ODRPackPlatform

/// A stored entry hashed together with the archive (`addFile(_:crc:storedPayload:hashingInto:)`, or streamed with
/// `addFile(_:size:crc:storedHashingInto:body:)`) gives the same archive, byte for byte, as the plain `addFile`, the archive's SHA-256 and the entry's own: for payloads that stay
/// in the writer's 512 KiB buffer, that flush it, and that go straight to the file (1 MiB and more are hashed on the
/// other core while they are written).
@Suite struct AssetPackZipWriterTests {
    static let sizes = [0, 1, 100, 300_000, 524_287, 524_288, 700_000, 1_048_576, 3_000_001]

    func payload(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    /// Writes every payload (with a small deflated entry between them) and returns the archive's digest as the
    /// writer reports it, each paired entry's digest, and the file's bytes.
    func write(_ payloads: [[UInt8]], paired: Bool, in project: TemporaryProject, name: String) throws -> (String, [String], Data) {
        let path = project.path(name)
        let descriptor = try SystemCall.createFile(path)
        defer { SystemCall.closeFile(descriptor) }
        let writer = try AssetPackZipWriter(descriptor: descriptor, path: path, entryTime: 946_684_800, level: 4)
        var digests: [String] = []
        for (index, bytes) in payloads.enumerated() {
            try bytes.withUnsafeBytes { raw in
                let crc = CRC32.update(0, raw)
                if paired {
                    var content = SHA256Hasher()
                    if index.isMultiple(of: 2) {
                        try writer.addFile("stored\(index)", crc: crc, storedPayload: raw, hashingInto: &content)
                    } else {
                        // Streamed in uneven pieces.
                        try writer.addFile("stored\(index)", size: Int64(raw.count), crc: crc, storedHashingInto: &content) { append in
                            var at = 0
                            while at < raw.count {
                                let count = min(raw.count - at, 333_333)
                                try append(UnsafeRawBufferPointer(rebasing: raw[at..<(at + count)]))
                                at += count
                            }
                        }
                    }
                    digests.append(content.finalize())
                } else {
                    try writer.addFile("stored\(index)", size: Int64(raw.count), crc: crc, deflated: false, payload: raw)
                }
            }
            let text = Array(String(repeating: "text \(index) ", count: 50).utf8)
            try text.withUnsafeBytes { raw in
                try writer.addFile("text\(index).txt", size: Int64(raw.count), crc: CRC32.update(0, raw), deflate: true) { try $0(raw) }
            }
        }
        let (_, sha256) = try writer.finish()
        return (sha256, digests, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func storedEntriesHashedWithTheArchiveAreTheSameArchive() throws {
        let project = try TemporaryProject()
        let payloads = Self.sizes.enumerated().map { payload($0.element, seed: UInt64($0.offset) + 1) }
        let (plainDigest, _, plain) = try write(payloads, paired: false, in: project, name: "plain.zip")
        let (pairedDigest, entryDigests, paired) = try write(payloads, paired: true, in: project, name: "paired.zip")
        #expect(paired == plain)
        #expect(pairedDigest == sha256Hex(plain) && plainDigest == sha256Hex(plain))
        #expect(entryDigests == payloads.map { sha256Hex(Data($0)) })
    }
}
