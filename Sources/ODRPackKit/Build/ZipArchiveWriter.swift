import CArchive
import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One zip archive being written through libarchive. Owns the libarchive handle (freed in `deinit`)
/// and hashes the bytes on their way to the file descriptor, so the archive is never read back.
final class ZipArchiveWriter {
    /// Where libarchive's output goes: the file, a running SHA-256 and a byte count.
    private final class Sink {
        let descriptor: Int32
        var hasher = SHA256()
        var bytes: Int64 = 0
        var failure: Int32 = 0

        init(descriptor: Int32) { self.descriptor = descriptor }
    }

    private let archive: OpaquePointer
    private let sink: Sink
    private var closed = false

    /// - Parameters:
    ///   - descriptor: an open, empty file; the caller closes it.
    ///   - compressionLevel: zlib level 0-9 for deflated entries.
    init(descriptor: Int32, compressionLevel: Int) throws {
        ArchiveLocale.ensureUTF8()
        guard let archive = archive_write_new() else { throw ArchiveError("cannot create a zip writer") }
        self.archive = archive
        sink = Sink(descriptor: descriptor)
        try ArchiveError.check(archive_write_set_format_zip(archive), archive, "zip format")
        // Large blocks mean few write calls; no padding after the last one.
        try ArchiveError.check(archive_write_set_bytes_per_block(archive, 256 * 1024), archive, "zip block size")
        try ArchiveError.check(archive_write_set_bytes_in_last_block(archive, 1), archive, "zip block size")
        try ArchiveError.check(archive_write_set_options(archive, "zip:compression-level=\(compressionLevel)"), archive,
                               "zip compression level")
        let opened = archive_write_open2(archive, Unmanaged.passUnretained(sink).toOpaque(), nil, { _, context, buffer, length in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            guard let buffer else { return 0 }
            var offset = 0
            while offset < length {
                let written = write(sink.descriptor, buffer + offset, length - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    sink.failure = errno
                    return -1
                }
                offset += written
            }
            sink.hasher.update(bufferPointer: UnsafeRawBufferPointer(start: buffer, count: length))
            sink.bytes += Int64(length)
            return length
        }, nil, nil)
        try check(opened, "open zip output")
    }

    deinit {
        if !closed { archive_write_close(archive) }
        archive_write_free(archive)
    }

    /// Adds a regular file entry; `body` receives a function that appends data to it.
    func addEntry(path: String, size: Int64, modificationTime: Int64, deflate: Bool,
                  body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        guard let entry = archive_entry_new() else { throw ArchiveError("out of memory") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, path)
        archive_entry_set_size(entry, size)
        archive_entry_set_filetype(entry, ODR_AE_IFREG)
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_mtime(entry, time_t(modificationTime), 0)
        archive_entry_set_uid(entry, 0)
        archive_entry_set_gid(entry, 0)
        if deflate {
            try check(archive_write_zip_set_compression_deflate(archive), "deflate \(path)")
        } else {
            try check(archive_write_zip_set_compression_store(archive), "store \(path)")
        }
        try check(archive_write_header(archive, entry), "write header of \(path)")
        try body { chunk in
            guard chunk.count > 0 else { return }
            let written = archive_write_data(archive, chunk.baseAddress, chunk.count)
            if written < 0 { try check(Int32(written), "write \(path)") }
        }
        try check(archive_write_finish_entry(archive), "finish \(path)")
    }

    /// Writes the central directory and returns the archive's size and SHA-256.
    func finish() throws -> (size: Int64, sha256: String) {
        closed = true
        try check(archive_write_close(archive), "close zip")
        return (sink.bytes, sink.hasher.finalize().hexString)
    }

    private func check(_ code: Int32, _ what: @autoclosure () -> String) throws {
        if code < ARCHIVE_WARN, sink.failure != 0 {
            throw BuildError.system(what(), sink.failure)
        }
        try ArchiveError.check(code, archive, what())
    }
}

extension Sequence where Element == UInt8 {
    /// Lowercase hexadecimal.
    var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for byte in self {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
