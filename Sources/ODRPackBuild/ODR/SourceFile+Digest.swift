import ODRPackBuildFormat
import ODRPackFormats
import ODRPackPlatform

extension SourceFile {
    /// Opens `path`, reads it once for its SHA-256 and CRC-32, checks that it did not change meanwhile, and closes it.
    static func digest(
        of path: String, name: String, expected: FileStamp?, size: Int64, buffer: UnsafeMutableRawBufferPointer
    ) throws -> FileDigest {
        let source = try SourceFile(path: path, name: name, expected: expected, size: size)
        defer { source.close() }
        let digest = try source.digest(buffer: buffer)
        try source.checkUnchanged()
        return digest
    }

    /// The whole file's SHA-256 and CRC-32, read from the start.
    private func digest(buffer: UnsafeMutableRawBufferPointer) throws -> FileDigest {
        var hasher = SHA256Hasher()
        var crc: UInt32 = 0
        try stream(into: buffer) { chunk in
            hasher.update(chunk)
            crc = CRC32.update(crc, chunk)
        }
        return FileDigest(sha256: hasher.finalize(), crc32: crc)
    }

    /// The whole file's CRC-32, read from the start.
    func crc32(buffer: UnsafeMutableRawBufferPointer) throws -> UInt32 {
        var crc: UInt32 = 0
        try stream(into: buffer) { crc = CRC32.update(crc, $0) }
        return crc
    }
}
