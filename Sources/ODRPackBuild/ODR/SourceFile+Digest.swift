import ODRPackBuildFormat
import ODRPackFormats
import ODRPackPlatform

extension SourceFile {
    /// A file's SHA-256 and CRC-32 in one read (`sha256(of:)`, which also checks a resource did not change).
    static func digest(of path: FilePath, name: String, expected: FileStamp?, size: Int64, buffer: ReadBuffer) throws
        -> FileDigest
    {
        var crc: UInt32 = 0
        let (_, sha256) = try sha256(of: path, name: name, expected: expected, size: size, buffer: buffer) {
            crc = CRC32.update(crc, $0)
        }
        return FileDigest(sha256: sha256, crc32: crc)
    }

    /// The whole file's CRC-32, read from the start.
    func crc32(buffer: UnsafeMutableRawBufferPointer) throws -> UInt32 {
        var crc: UInt32 = 0
        try stream(into: buffer) { crc = CRC32.update(crc, $0) }
        return crc
    }
}
