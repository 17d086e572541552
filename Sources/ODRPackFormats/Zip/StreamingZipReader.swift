import CZlib
import ODRPackPlatform

/// Reads a zip front to back through its local headers alone, as a device unpacks an asset pack while it
/// streams in, then reads the central directory that follows to compare. Owns its file and buffers.
package final class StreamingZipReader {
    /// A zip that cannot be read this way, with where and why.
    package typealias FormatError = ZipFormatError

    package struct LocalEntry {
        package let name: String
        var versionNeeded: UInt16
        package let flags: UInt16
        package let method: UInt16
        package let crc: UInt32
        package var compressedSize: UInt64
        package var size: UInt64
        /// Ids of the extra fields, in order.
        package var extraIDs: [UInt16]
        /// Whether the 32-bit size fields defer to a zip64 extra field.
        package var usesZip64: Bool
        package var offset: UInt64
        /// The MS-DOS time and date, read as UTC.
        package var dosTime: UInt16 = 0
        package var dosDate: UInt16 = 0
    }

    package struct CentralEntry {
        package let name: String
        package let versionMadeBy: UInt16
        package let flags: UInt16
        package let method: UInt16
        package let crc: UInt32
        package var compressedSize: UInt64
        package var size: UInt64
        var externalAttributes: UInt32
        package var offset: UInt64
        package var extraIDs: [UInt16]
        package var mode: UInt32 { externalAttributes >> 16 }
    }

    private let descriptor: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    private var bufferStart = 0
    private var bufferEnd = 0
    /// File offset of `buffer[bufferStart]`.
    private var position: UInt64 = 0
    private var current: LocalEntry?
    /// With `hashing`: the SHA-256 of the file's bytes up to `hashedTo`, hashed once each, in file order, when they
    /// are consumed (so an entry's stored bytes can be hashed together with their own content hash).
    private var hasher: SHA256Hasher?
    /// File offset up to which `hasher` has hashed; between the buffer's start and `position`.
    private var hashedTo: UInt64 = 0
    /// Bytes read from the file so far (the buffer's end, as a file offset).
    private var bytesRead: UInt64 = 0
    /// Made at the first small deflated entry.
    private var wholeInflater: WholeInflater?

    /// - Parameter hashing: also hash the file's raw bytes on the way, so `digestToEnd` needs no second read.
    package init(path: FilePath, hashing: Bool = false) throws {
        switch SystemCall.openForReading(path) {
        case .success(let opened): descriptor = opened
        case .failure(let error): throw FormatError(description: "cannot open: \(error.reason)")
        }
        buffer = .allocate(byteCount: 1 << 20, alignment: 16)
        if hashing { hasher = SHA256Hasher.paired() }
    }

    /// The whole file's size and SHA-256. With `hashing`: the bytes read so far, then the rest up to the end, in one
    /// read of the file; without it, the file again from its start. Also after a format error, since everything read
    /// before it was hashed in order.
    package func digestToEnd() throws -> (size: Int64, sha256: String) {
        hashConsumed(upTo: bytesRead)
        var (hasher, offset) = self.hasher.map { ($0, bytesRead) } ?? (SHA256Hasher.paired(), 0)
        while true {
            let count = SystemCall.readFully(
                descriptor, into: buffer.baseAddress!, count: buffer.count, at: Int64(offset))
            guard count >= 0 else { throw FormatError(description: "cannot read: \(SystemError.last.reason)") }
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            offset += UInt64(count)
        }
        // The buffer now holds bytes past the parsed ones: nothing may be parsed after this.
        bytesRead = max(bytesRead, offset)
        bufferStart = 0
        bufferEnd = 0
        self.hasher = nil
        return (Int64(offset), hasher.finalize())
    }

    deinit {
        SystemCall.closeFile(descriptor)
        buffer.deallocate()
    }

    /// The next entry's local header, or nil where the central directory begins.
    package func nextEntry() throws -> LocalEntry? {
        if current != nil { try readData { _ in } }
        let offset = position
        let signature = try peekSignature()
        if signature == ZipFormat.centralHeaderSignature || signature == ZipFormat.endOfCentralDirectorySignature {
            return nil
        }
        guard signature == ZipFormat.localHeaderSignature else {
            throw FormatError(
                description: "no local header at offset \(offset) (found 0x\(String(signature, radix: 16)))")
        }
        let header = try take(ZipFormat.localHeaderSize)
        let nameLength = Int(header.little(26, as: UInt16.self))
        let extraLength = Int(header.little(28, as: UInt16.self))
        let name = String(decoding: try take(nameLength), as: UTF8.self)
        let extra = try take(extraLength)
        var entry = LocalEntry(
            name: name, versionNeeded: header.little(4), flags: header.little(6), method: header.little(8),
            crc: header.little(14), compressedSize: UInt64(header.little(18, as: UInt32.self)),
            size: UInt64(header.little(22, as: UInt32.self)), extraIDs: [], usesZip64: false, offset: offset,
            dosTime: header.little(10), dosDate: header.little(12))
        try extra.withUnsafeBytes { extra in
            try ZipFormat.forEachExtraField(extra) { id, field in
                entry.extraIDs.append(id)
                guard id == ZipFormat.zip64ExtraID else { return }
                entry.usesZip64 = true
                guard field.count >= 16 else {
                    throw FormatError(description: "'\(name)': its zip64 field is \(field.count) bytes, not 16")
                }
                if entry.size == UInt64(ZipFormat.overflow32) { entry.size = field.little(0) }
                if entry.compressedSize == UInt64(ZipFormat.overflow32) { entry.compressedSize = field.little(8) }
            }
        }
        current = entry
        return entry
    }

    /// Streams the current entry's uncompressed bytes to `body`, reading exactly the compressed size the local
    /// header gives; returns the CRC-32 and the count of what came out.
    @discardableResult
    package func readData(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> (crc: UInt32, size: UInt64) {
        var unused: SHA256Hasher?
        return try readData(hashingInto: &unused, body)
    }

    /// As `readData(_:)`, also hashing the uncompressed bytes into `content`: a stored entry's bytes are hashed
    /// into the archive's hash and `content` in one pass.
    package func readData(
        hashingInto content: inout SHA256Hasher,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> (crc: UInt32, size: UInt64) {
        var hashing: SHA256Hasher? = content
        defer { if let hashing { content = hashing } }
        return try readData(hashingInto: &hashing, body)
    }

    private func readData(
        hashingInto content: inout SHA256Hasher?,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> (crc: UInt32, size: UInt64) {
        guard let entry = current else { return (0, 0) }
        current = nil
        var crc: UInt32 = 0
        var size: UInt64 = 0
        /// `contentHashed`: the bytes already went into `content` (with the archive's hash).
        func emit(_ bytes: UnsafeRawBufferPointer, contentHashed: Bool = false) throws {
            crc = CRC32.update(crc, bytes)
            size += UInt64(bytes.count)
            if !contentHashed { content?.update(bytes) }
            try body(bytes)
        }
        switch entry.method {
        case ZipFormat.stored where content != nil && hasher != nil:
            try stream(entry.compressedSize) { piece in
                hashConsumed(upTo: position)
                SHA256Hasher.update(&hasher!, &content!, with: piece)
                hashedTo = position + UInt64(piece.count)
                try emit(piece, contentHashed: true)
            }
        case ZipFormat.stored:
            try stream(entry.compressedSize) { try emit($0) }
        case ZipFormat.deflated:
            if let whole = try inflateWhole(entry) {
                try emit(whole)
                break
            }
            let inflater = try Inflater()
            var ended = false
            try stream(entry.compressedSize) { piece in
                guard !ended else {
                    throw FormatError(description: "'\(entry.name)': data after the end of its deflate stream")
                }
                ended = try inflater.inflate(piece) { try emit($0) }
            }
            guard ended else { throw FormatError(description: "'\(entry.name)': its deflate stream ends early") }
        default:
            throw FormatError(
                description:
                    """
                    '\(entry.name)' uses compression method \(entry.method): only stored (0) and deflate (8) are \
                    allowed
                    """
            )
        }
        return (crc, size)
    }

    /// A small deflated entry's bytes inflated at once from the buffer, consuming its compressed bytes; nil (nothing
    /// consumed) when it is too large or libdeflate does not read it exactly as its header says: zlib then streams it.
    private func inflateWhole(_ entry: LocalEntry) throws -> UnsafeRawBufferPointer? {
        guard entry.compressedSize <= UInt64(buffer.count), entry.size <= UInt64(WholeInflater.limit),
            try fill(Int(entry.compressedSize))
        else { return nil }
        if wholeInflater == nil { wholeInflater = try WholeInflater() }
        let count = Int(entry.compressedSize)
        guard
            let bytes = wholeInflater?.inflate(
                UnsafeRawBufferPointer(rebasing: buffer[bufferStart..<(bufferStart + count)]),
                size: Int(entry.size))
        else { return nil }
        bufferStart += count
        position += UInt64(count)
        return bytes
    }

    /// Reads the central directory from where the local headers ended, through the end record; checks that the
    /// end record points at it.
    package func centralDirectory() throws -> [CentralEntry] {
        while try current != nil || peekSignature() == ZipFormat.localHeaderSignature { _ = try nextEntry() }
        let start = position
        var entries: [CentralEntry] = []
        while try peekSignature() == ZipFormat.centralHeaderSignature { entries.append(try centralEntry()) }
        let directorySize = position - start
        let recordedOffset = try zip64EndRecord(entries: entries.count, directorySize: directorySize)
        try endRecord(entries: entries.count, start: start, directorySize: directorySize, zip64Offset: recordedOffset)
        return entries
    }

    /// One central header at the reading position, its zip64 field applied: the directory's loop body, apart so
    /// that the records after the loop read as the checks they are.
    private func centralEntry() throws -> CentralEntry {
        let header = try take(ZipFormat.centralHeaderSize)
        let nameLength = Int(header.little(28, as: UInt16.self))
        let extraLength = Int(header.little(30, as: UInt16.self))
        let commentLength = Int(header.little(32, as: UInt16.self))
        let name = String(decoding: try take(nameLength), as: UTF8.self)
        let extra = try take(extraLength)
        _ = try take(commentLength)
        var entry = CentralEntry(
            name: name, versionMadeBy: header.little(4), flags: header.little(8), method: header.little(10),
            crc: header.little(16), compressedSize: UInt64(header.little(20, as: UInt32.self)),
            size: UInt64(header.little(24, as: UInt32.self)), externalAttributes: header.little(38),
            offset: UInt64(header.little(42, as: UInt32.self)), extraIDs: [])
        try extra.withUnsafeBytes { extra in
            try ZipFormat.forEachExtraField(extra) { id, field in
                entry.extraIDs.append(id)
                guard id == ZipFormat.zip64ExtraID else { return }
                try ZipFormat.resolveCentralZip64(
                    field, name: name, size: &entry.size, compressedSize: &entry.compressedSize,
                    offset: &entry.offset)
            }
        }
        return entry
    }

    /// The zip64 end record and its locator, when the directory is followed by one: checks that it counts `entries`
    /// in `directorySize` bytes, and returns the directory offset it records (nil without one), which then overrides
    /// the 32-bit one of the end record.
    private func zip64EndRecord(entries: Int, directorySize: UInt64) throws -> UInt64? {
        guard try peekSignature() == ZipFormat.zip64EndSignature else { return nil }
        let record = try take(56)
        let onDisk: UInt64 = record.little(24)
        let total: UInt64 = record.little(32)
        let recordedSize: UInt64 = record.little(40)
        guard onDisk == UInt64(entries), total == UInt64(entries), recordedSize == UInt64(directorySize) else {
            throw FormatError(
                description:
                    """
                    the zip64 end record says \(total) entries (\(onDisk) on this disk) in \(recordedSize) bytes; \
                    the central directory has \(entries) in \(directorySize)
                    """
            )
        }
        guard try peekSignature() == ZipFormat.zip64LocatorSignature else {
            throw FormatError(description: "the zip64 end record has no locator")
        }
        _ = try take(20)
        return record.little(48)
    }

    /// The end-of-central-directory record: it must follow the directory and point at it (`start`), with its
    /// `entries` and size (each capped at what its 16 or 32 bits hold).
    private func endRecord(entries: Int, start: UInt64, directorySize: UInt64, zip64Offset: UInt64?) throws {
        guard try peekSignature() == ZipFormat.endOfCentralDirectorySignature else {
            throw FormatError(
                description: "no end-of-central-directory record after the central directory (offset \(position))")
        }
        let end = try take(22)
        let count = UInt64(end.little(10, as: UInt16.self))
        let size = UInt64(end.little(12, as: UInt32.self))
        let offset = zip64Offset ?? UInt64(end.little(16, as: UInt32.self))
        guard count == UInt64(min(entries, 0xFFFF)), offset == start,
            size == min(directorySize, UInt64(ZipFormat.overflow32)) || size == UInt64(ZipFormat.overflow32)
        else {
            throw FormatError(
                description:
                    """
                    the end record says \(count) entries at offset \(offset); the central directory has \
                    \(entries) at \(start)
                    """
            )
        }
    }

    // MARK: Bytes

    private func fill(_ wanted: Int) throws -> Bool {
        if bufferEnd - bufferStart >= wanted { return true }
        if bufferStart > 0 {
            hashConsumed(upTo: position)
            let kept = bufferEnd - bufferStart
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + bufferStart, byteCount: kept)
            bufferStart = 0
            bufferEnd = kept
        }
        while bufferEnd - bufferStart < wanted {
            let count = SystemCall.readFully(
                descriptor, into: buffer.baseAddress! + bufferEnd, count: buffer.count - bufferEnd,
                at: Int64(position) + Int64(bufferEnd))
            if count < 0 { throw FormatError(description: "cannot read: \(SystemError.last.reason)") }
            if count == 0 { return false }
            bufferEnd += count
            bytesRead = position + UInt64(bufferEnd)
        }
        return true
    }

    /// Hashes the buffered bytes from `hashedTo` up to the file offset `end` (consumed or, at the end, all read).
    private func hashConsumed(upTo end: UInt64) {
        guard hasher != nil, end > hashedTo else { return }
        let bufferOffset = position - UInt64(bufferStart)
        hasher!.update(UnsafeRawBufferPointer(rebasing: buffer[Int(hashedTo - bufferOffset)..<Int(end - bufferOffset)]))
        hashedTo = end
    }

    private func peekSignature() throws -> UInt32 {
        guard try fill(4) else {
            throw FormatError(description: "the archive ends at offset \(position) without a central directory")
        }
        return UnsafeRawBufferPointer(rebasing: buffer[bufferStart..<bufferEnd]).little(0)
    }

    private func take(_ count: Int) throws -> [UInt8] {
        guard try fill(count) else {
            throw FormatError(description: "the archive ends inside a header at offset \(position)")
        }
        defer {
            bufferStart += count
            position += UInt64(count)
        }
        return Array(buffer[bufferStart..<(bufferStart + count)])
    }

    private func stream(_ count: UInt64, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var left = count
        while left > 0 {
            guard try fill(1) else {
                throw FormatError(description: "the archive ends inside an entry's data at offset \(position)")
            }
            let piece = Int(min(UInt64(bufferEnd - bufferStart), left))
            try body(UnsafeRawBufferPointer(rebasing: buffer[bufferStart..<(bufferStart + piece)]))
            bufferStart += piece
            position += UInt64(piece)
            left -= UInt64(piece)
        }
    }
}

extension [UInt8] {
    func little<T: FixedWidthInteger>(_ offset: Int, as type: T.Type = T.self) -> T {
        withUnsafeBytes { $0.little(offset, as: type) }
    }
}

/// Raw inflate through zlib; owns its stream.
package final class Inflater {
    private var stream = z_stream()
    private let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)

    package init() throws {
        guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            output.deallocate()
            throw StreamingZipReader.FormatError(description: "cannot start zlib's inflate")
        }
    }

    deinit {
        inflateEnd(&stream)
        output.deallocate()
    }

    /// Inflates one piece; returns true once the stream has ended.
    package func inflate(_ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws
        -> Bool
    {
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        while true {
            stream.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(output.count)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            let produced = output.count - Int(stream.avail_out)
            if produced > 0 { try body(UnsafeRawBufferPointer(rebasing: output[..<produced])) }
            if status == Z_STREAM_END {
                guard stream.avail_in == 0 else {
                    throw StreamingZipReader.FormatError(description: "data after the end of a deflate stream")
                }
                return true
            }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                throw StreamingZipReader.FormatError(description: "the deflate data is damaged (zlib status \(status))")
            }
            if stream.avail_in == 0 && stream.avail_out != 0 { return false }
        }
    }
}
