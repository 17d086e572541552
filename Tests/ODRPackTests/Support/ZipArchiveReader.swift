import CArchive
import Foundation

/// Reads a zip archive's entries through libarchive, streaming each entry's data: a second implementation that
/// checks odrpack's own writer. `streaming` reads through the local headers alone, never the central directory,
/// as a device unpacks a pack while it downloads. Owns the handle.
final class ZipArchiveReader {
    private let archive: OpaquePointer
    private var entry: OpaquePointer?

    init(path: String, streaming: Bool = false) throws {
        ArchiveLocale.ensureUTF8()
        guard let archive = archive_read_new() else { throw ArchiveError("cannot create a zip reader") }
        self.archive = archive
        try ArchiveError.check(
            streaming
                ? archive_read_support_format_zip_streamable(archive)
                : archive_read_support_format_zip_seekable(archive), archive, "zip support")
        try ArchiveError.check(archive_read_open_filename(archive, path, 1 << 20), archive, "open \(path)")
    }

    deinit {
        archive_read_close(archive)
        archive_read_free(archive)
    }

    /// The next entry's path, or nil at the end.
    func nextEntry() throws -> String? {
        var next: OpaquePointer?
        let code = archive_read_next_header(archive, &next)
        if code == ARCHIVE_EOF { return nil }
        try ArchiveError.check(code, archive, "read entry header")
        entry = next
        if let utf8 = archive_entry_pathname_utf8(next) { return String(cString: utf8) }
        return archive_entry_pathname(next).map { String(cString: $0) } ?? ""
    }

    /// The current entry's Unix mode (type and permission bits), as its central or local record gives it.
    var mode: UInt32 { UInt32(archive_entry_mode(entry)) }

    /// The current entry's link target, when it is a symbolic link.
    var symlinkTarget: String? {
        if let utf8 = archive_entry_symlink_utf8(entry) { return String(cString: utf8) }
        return archive_entry_symlink(entry).map { String(cString: $0) }
    }

    /// Streams the current entry's data to `body`; returns the byte count.
    @discardableResult
    func readData(_ body: (UnsafeRawBufferPointer) -> Void) throws -> Int64 {
        var total: Int64 = 0
        var block: UnsafeRawPointer?
        var size = 0
        var offset: la_int64_t = 0
        while true {
            let code = archive_read_data_block(archive, &block, &size, &offset)
            if code == ARCHIVE_EOF { return total }
            try ArchiveError.check(code, archive, "read entry data")
            if let block, size > 0 {
                body(UnsafeRawBufferPointer(start: block, count: size))
                total += Int64(size)
            }
        }
    }
}
