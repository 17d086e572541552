import CZlib
import ODRPackPlatform

/// Writes a zip in the form of Apple's streaming asset packs (docs/build-output.md): every local header carries the entry's
/// CRC-32 and both sizes (flag bit 3 never set), UTF-8 names, Unix modes, no extra field but zip64 where a
/// number needs it. The caller knows each entry's CRC before its header; the archive's SHA-256 is computed on
/// the way out, so the archive is read back only for the rare entry whose compressed size is patched in.
package final class AssetPackZipWriter {
    /// Entries whose deflated form is built in memory; larger ones stream to the file and have their header patched.
    static let inMemoryDeflateLimit = 1 << 20

    private let descriptor: Int32
    private let path: FilePath
    private let dosTime: UInt16
    private let dosDate: UInt16
    private let deflater: Deflater?
    private var pending: [UInt8] = []
    /// The front of `pending` already in `hasher`: the rest is hashed before anything after it.
    private var pendingHashed = 0
    private let pendingCapacity = 512 * 1024
    /// Bytes of the archive so far, pending ones included.
    private var offset: UInt64 = 0
    private var hasher = SHA256Hasher.paired()
    private var records = CentralRecords()
    /// The central directory's records held in memory at most (names and fixed records, about 2 MiB): past it they
    /// go to `spill` as their final bytes, so an archive of a million entries holds what one of thousands does.
    static let centralMemoryLimit = 2 << 20
    private let centralMemoryLimit: Int
    private let makeSpill: () throws -> SpillFile
    /// The central directory's first `spilledCount` headers, made at first need; `finish` copies them back.
    private var spill: SpillFile?
    private var spilledCount = 0

    /// - Parameters:
    ///   - descriptor: an open, empty file the caller closes; `path` names it in errors.
    ///   - entryTime: every entry's modification time, seconds since 1970 (UTC).
    ///   - level: zlib level for deflated entries; nil when no entry is deflated.
    ///   - centralMemoryLimit: the bytes of central records held before they spill (a test's small one).
    ///   - makeSpill: makes the file the records spill to (a test's full one); by default unnamed, beside `path`.
    package init(
        descriptor: Int32, path: FilePath, entryTime: Int64, level: Int?,
        centralMemoryLimit: Int = AssetPackZipWriter.centralMemoryLimit, makeSpill: (() throws -> SpillFile)? = nil
    ) throws {
        self.descriptor = descriptor
        self.path = path
        self.centralMemoryLimit = centralMemoryLimit
        // SpillFile takes text for now (it is the performance work's to move): the archive's path is UTF-8 there.
        self.makeSpill = makeSpill ?? { try SpillFile(beside: path.string) }
        (dosTime, dosDate) = ZipFormat.dosDateTime(entryTime)
        deflater = try level.map { try Deflater(level: $0) }
        pending.reserveCapacity(pendingCapacity)
    }

    /// What an entry's data is, as `add` receives it.
    package enum EntryData {
        /// A folder (its name ends with "/"): no data.
        case folder
        /// Its archived bytes, all in memory: the data, deflated when `deflated`.
        case archived(UnsafeRawBufferPointer, deflated: Bool)
        /// Archived bytes that already exist (an unchanged entry of an earlier archive), `compressedSize` in all,
        /// passed piece by piece by `add`'s `pieces`.
        case copied(compressedSize: Int64, deflated: Bool)
        /// The entry's own bytes, `size` in all, passed piece by piece by `pieces` and deflated here when `deflate`;
        /// when deflating does not make them smaller, `pieces` is called a second time and they are stored.
        case streamed(deflate: Bool)
    }

    /// Adds one entry. With `hashingContent`, it also returns the SHA-256 of the entry's own bytes, taken as they go
    /// by: a stored entry's in one pass with the archive's hash, so its digest costs a third of a second hash.
    /// - Parameter pieces: for `.copied` and `.streamed`, calls its argument with each piece of the bytes, in order.
    /// - Parameter mode: the entry's Unix mode, when not the standard one of its kind (an IPA's executables and links).
    @discardableResult
    package func add(
        _ name: String, _ data: EntryData, size: Int64 = 0, crc: UInt32 = 0, hashingContent: Bool = false,
        mode: UInt32? = nil, pieces: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void = { _ in }
    ) throws -> String? {
        try add(
            nameBytes: Array(name.utf8), data, size: size, crc: crc, hashingContent: hashingContent, mode: mode,
            pieces: pieces)
    }

    /// `add` for a name given as bytes: an IPA's file whose name is not UTF-8 keeps it, without flag bit 11.
    @discardableResult
    package func add(
        nameBytes name: [UInt8], _ data: EntryData, size: Int64 = 0, crc: UInt32 = 0, hashingContent: Bool = false,
        mode: UInt32? = nil, pieces: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void = { _ in }
    ) throws -> String? {
        // Here, where every record so far is final (its mode set): what spills is the directory's last word on them.
        if records.memory >= centralMemoryLimit { try spillRecords() }
        let recordsBefore = records.count
        defer { if let mode, records.count > recordsBefore { records.setLastMode(mode) } }
        var content: SHA256Hasher? = hashingContent ? SHA256Hasher.paired() : nil
        switch data {
        case .folder:
            precondition(!hashingContent, "a folder has no content to hash")
            try addEntry(name, method: ZipFormat.stored, crc: 0, size: 0, compressedSize: 0, isFolder: true)
        case .archived(let payload, let deflated):
            precondition(!(hashingContent && deflated), "archived deflated bytes are not the entry's own")
            try addArchived(
                name, size: size, crc: crc, deflated: deflated, compressedSize: Int64(payload.count),
                alsoHashingInto: &content
            ) { try $0(payload) }
        case .copied(let compressedSize, let deflated):
            precondition(!(hashingContent && deflated), "archived deflated bytes are not the entry's own")
            try addArchived(
                name, size: size, crc: crc, deflated: deflated, compressedSize: compressedSize,
                alsoHashingInto: &content, pieces)
        case .streamed(let deflate):
            try addStreamed(name, size: size, crc: crc, deflate: deflate, alsoHashingInto: &content, pieces)
        }
        return content?.finalize()
    }

    /// An entry whose archived bytes `body` passes piece by piece, `compressedSize` bytes in all; with `content`, they
    /// are also hashed into it, in the same pass as the archive's hash (`SHA256Hasher.update(_:_:with:)`).
    private func addArchived(
        _ name: [UInt8], size: Int64, crc: UInt32, deflated: Bool, compressedSize: Int64,
        alsoHashingInto content: inout SHA256Hasher?,
        _ body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        try addEntry(
            name, method: deflated ? ZipFormat.deflated : ZipFormat.stored, crc: crc, size: UInt64(size),
            compressedSize: UInt64(compressedSize), isFolder: false)
        var archived: Int64 = 0
        try body { piece in
            archived += Int64(piece.count)
            try emit(piece, alsoHashingInto: &content)
        }
        guard archived == compressedSize else { throw sizeMismatch(name, expected: compressedSize, got: archived) }
    }

    /// The local header this writer gives a file entry: an entry copied from an earlier archive had exactly this one.
    package func localHeader(ofFile name: String, size: Int64, crc: UInt32, deflated: Bool, compressedSize: Int64)
        -> [UInt8]
    {
        localHeader(
            Array(name.utf8), method: deflated ? ZipFormat.deflated : ZipFormat.stored, crc: crc, size: UInt64(size),
            compressedSize: UInt64(compressedSize),
            zip64: ZipFormat.needsZip64(size: UInt64(size), compressedSize: UInt64(compressedSize)))
    }

    /// A file entry streamed from `body`, deflated on the way when `deflate`.
    private func addStreamed(
        _ name: [UInt8], size: Int64, crc: UInt32, deflate: Bool, alsoHashingInto content: inout SHA256Hasher?,
        _ body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        guard deflate, let deflater else {
            // Stored, its archived bytes are its bytes.
            return try addArchived(
                name, size: size, crc: crc, deflated: false, compressedSize: size, alsoHashingInto: &content, body)
        }
        try Self.checkName(name)
        // The compressed size is known only at the end: write a header to reserve its place, stream the data,
        // write the header again with the size, then hash the region in order.
        try flush()
        let headerOffset = offset
        let (compressedSize, reserved) = try writeDeflated(
            name, size: size, crc: crc, deflater: deflater, alsoHashingInto: &content, body)
        if compressedSize >= UInt64(size) {
            // Deflating did not make it smaller: the entry is stored instead (docs/build-output.md), its bytes streamed
            // again from `body` over what was written. Nothing of the entry is hashed yet.
            if let failure = SystemCall.truncate(descriptor, to: Int64(headerOffset)) {
                throw ODRPackError.io(.write, path: path, failure)
            }
            offset = headerOffset
            if content != nil { content = SHA256Hasher.paired() }
            return try addArchived(
                name, size: size, crc: crc, deflated: false, compressedSize: size, alsoHashingInto: &content, body)
        }
        try patchHeader(
            name, size: size, crc: crc, compressedSize: compressedSize, at: headerOffset, reservedCount: reserved)
        records.append(
            ZipHeaders.Record(
                name: name, method: ZipFormat.deflated, crc: crc, compressedSize: compressedSize,
                size: UInt64(size), offset: headerOffset, isFolder: false))
        try hashRegion(from: headerOffset, to: offset)
    }

    /// Writes a placeholder local header (compressed size 0) and the entry's bytes from `body` deflated after it, none
    /// of it hashed; returns the compressed size and the placeholder's length. The placeholder has the zip64 field when
    /// zlib's bound on the compressed size could need it, so the data never has to move forward.
    private func writeDeflated(
        _ name: [UInt8], size: Int64, crc: UInt32, deflater: Deflater, alsoHashingInto content: inout SHA256Hasher?,
        _ body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws -> (compressedSize: UInt64, reservedCount: UInt64) {
        let reserved = ZipFormat.needsZip64(size: UInt64(size), compressedSize: UInt64(compressBound(uLong(size))))
        let header = localHeader(
            name, method: ZipFormat.deflated, crc: crc, size: UInt64(size), compressedSize: 0, zip64: reserved)
        try header.withUnsafeBytes { try writeAll($0, hashing: false) }
        var compressedSize: UInt64 = 0
        var read: Int64 = 0
        try body { piece in
            read += Int64(piece.count)
            content?.update(piece)
            try deflater.compress(piece, finish: false) { out in
                compressedSize += UInt64(out.count)
                try writeAll(out, hashing: false)
            }
        }
        try deflater.compress(UnsafeRawBufferPointer(start: nil, count: 0), finish: true) { out in
            compressedSize += UInt64(out.count)
            try writeAll(out, hashing: false)
        }
        guard read == size else { throw sizeMismatch(name, expected: size, got: read) }
        return (compressedSize, UInt64(header.count))
    }

    /// Writes the real local header over the placeholder `writeDeflated` left at `headerOffset`. When the real sizes
    /// need no zip64 field but the placeholder has one, the data moves back over it first (only for compressible
    /// entries within ~0.02% below 4 GiB).
    private func patchHeader(
        _ name: [UInt8], size: Int64, crc: UInt32, compressedSize: UInt64, at headerOffset: UInt64,
        reservedCount: UInt64
    ) throws {
        let zip64 = ZipFormat.needsZip64(size: UInt64(size), compressedSize: compressedSize)
        let header = localHeader(
            name, method: ZipFormat.deflated, crc: crc, size: UInt64(size), compressedSize: compressedSize, zip64: zip64
        )
        if UInt64(header.count) != reservedCount {
            guard UInt64(header.count) < reservedCount else {
                throw ODRPackError.library(.overBound(entry: FilePath.shownText(of: name)))
            }
            try moveBack(
                from: headerOffset + reservedCount, to: headerOffset + UInt64(header.count), count: compressedSize)
        }
        let failure = header.withUnsafeBytes { SystemCall.writeAll(descriptor, $0, at: Int64(headerOffset)) }
        guard failure == 0 else { throw ODRPackError.system(.write, path, failure) }
    }

    /// Moves the last `count` bytes of the file from `from` back to `to` (an earlier offset), then ends the file there.
    private func moveBack(from: UInt64, to: UInt64, count: UInt64) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var done: UInt64 = 0
        while done < count {
            let piece = SystemCall.readFully(
                descriptor, into: buffer.baseAddress!, count: Int(min(UInt64(buffer.count), count - done)),
                at: Int64(from + done))
            guard piece > 0 else { throw readBackFailure(piece) }
            let failure = SystemCall.writeAll(
                descriptor, UnsafeRawBufferPointer(rebasing: buffer[..<piece]), at: Int64(to + done))
            guard failure == 0 else { throw ODRPackError.system(.write, path, failure) }
            done += UInt64(piece)
        }
        if let failure = SystemCall.truncate(descriptor, to: Int64(to + count)) {
            throw ODRPackError.io(.write, path: path, failure)
        }
        offset = to + count
    }

    /// Writes the central directory (the spilled headers, then those in memory); returns the archive's size and
    /// SHA-256.
    package func finish() throws -> (size: Int64, sha256: String) {
        let directoryOffset = offset
        if let spill {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.spillChunk, alignment: 16)
            defer { buffer.deallocate() }
            var unhashed: SHA256Hasher?
            try spill.read(through: buffer) { try emit($0, alsoHashingInto: &unhashed) }
        }
        for index in 0..<records.count {
            try emitBytes(ZipHeaders.central(records.record(at: index), dosTime: dosTime, dosDate: dosDate))
        }
        let directorySize = offset - directoryOffset
        let end = ZipHeaders.end(
            entryCount: UInt64(spilledCount + records.count), directoryOffset: directoryOffset,
            directorySize: directorySize)
        try emitBytes(end)
        try flush()
        return (Int64(offset), hasher.finalize())
    }

    /// The bytes the spill is written and read back in.
    private static let spillChunk = 1 << 20

    /// Appends the central headers of the records in memory to the spill file (made now if need be) and forgets them.
    /// - Throws: `ODRPackError.io` ("cannot write '<path>'") when the spill cannot be made or written (a full
    ///   disk): the archive is then unfinished, and its caller removes it as after any other write error.
    private func spillRecords() throws {
        let spill = try self.spill ?? makeSpill()
        self.spill = spill
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.spillChunk + Int(UInt16.max) + 256)
        for index in 0..<records.count {
            bytes += ZipHeaders.central(records.record(at: index), dosTime: dosTime, dosDate: dosDate)
            if bytes.count >= Self.spillChunk {
                try bytes.withUnsafeBytes { try spill.append($0) }
                bytes.removeAll(keepingCapacity: true)
            }
        }
        try bytes.withUnsafeBytes { try spill.append($0) }
        spilledCount += records.count
        records.removeAll()
    }

    // MARK: Headers

    /// A zip name field holds at most 65,535 bytes; a longer name (a signer can make one) cannot be archived.
    static func checkName(_ name: [UInt8]) throws {
        let length = name.count
        guard length <= Int(UInt16.max) else {
            throw ODRPackError.unbuildable(.entryNameTooLong(name))
        }
    }

    private func addEntry(
        _ name: [UInt8], method: UInt16, crc: UInt32, size: UInt64, compressedSize: UInt64, isFolder: Bool
    ) throws {
        try Self.checkName(name)
        let zip64 = ZipFormat.needsZip64(size: size, compressedSize: compressedSize)
        records.append(
            ZipHeaders.Record(
                name: name, method: method, crc: crc, compressedSize: compressedSize,
                size: size, offset: offset, isFolder: isFolder))
        try emitBytes(
            localHeader(name, method: method, crc: crc, size: size, compressedSize: compressedSize, zip64: zip64))
    }

    private func localHeader(
        _ name: [UInt8], method: UInt16, crc: UInt32, size: UInt64, compressedSize: UInt64, zip64: Bool
    ) -> [UInt8] {
        ZipHeaders.local(
            name: name, method: method, crc: crc, size: size, compressedSize: compressedSize, zip64: zip64,
            dosTime: dosTime, dosDate: dosDate)
    }

    // MARK: Output

    private func emitBytes(_ bytes: [UInt8]) throws {
        var unhashed: SHA256Hasher?
        try bytes.withUnsafeBytes { try emit($0, alsoHashingInto: &unhashed) }
    }

    /// Appends to the archive through the pending buffer; large pieces go straight to the file. Pending bytes are
    /// hashed when flushed, unless they go into `content` too: then both hashes take them at once, now.
    private func emit(_ bytes: UnsafeRawBufferPointer, alsoHashingInto content: inout SHA256Hasher?) throws {
        if pending.count + bytes.count > pendingCapacity { try flush() }
        if bytes.count >= pendingCapacity {
            try writeAll(bytes, hashing: true, alsoInto: &content)
            return
        }
        if content != nil {
            // Both hashes take these bytes now, so what is pending before them is hashed first.
            hashPending()
            Self.hash(bytes, into: &hasher, and: &content)
            pendingHashed = pending.count + bytes.count
        }
        pending.append(contentsOf: bytes)
        offset += UInt64(bytes.count)
    }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        hashPending()
        let count = UInt64(pending.count)
        offset -= count
        try pending.withUnsafeBytes { try writeAll($0, hashing: false) }
        pending.removeAll(keepingCapacity: true)
        pendingHashed = 0
    }

    private func hashPending() {
        guard pendingHashed < pending.count else { return }
        pending.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[pendingHashed...])) }
        pendingHashed = pending.count
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer, hashing: Bool) throws {
        var unhashed: SHA256Hasher?
        try writeAll(bytes, hashing: hashing, alsoInto: &unhashed)
    }

    /// Writes at the end of the file (all of it, retrying interrupted writes); only bytes in archive order are hashed,
    /// and with `content` hashed into it too.
    private func writeAll(_ bytes: UnsafeRawBufferPointer, hashing: Bool, alsoInto content: inout SHA256Hasher?) throws
    {
        var failure: Int32 = 0
        if hashing && bytes.count >= Self.overlapStep {
            // A large piece is hashed while the kernel copies it: two cores where a rewritten pack has them.
            let hashers = (hasher, content)
            let descriptor = self.descriptor
            let parts = try parallelMap([0, 1], jobs: 2) {
                part -> (failure: Int32, hashers: (SHA256Hasher, SHA256Hasher?)) in
                if part == 0 { return (SystemCall.writeAll(descriptor, bytes), hashers) }
                var (archive, entry) = hashers
                Self.hash(bytes, into: &archive, and: &entry)
                return (0, (archive, entry))
            }
            failure = parts[0].failure
            (hasher, content) = parts[1].hashers
        } else {
            failure = SystemCall.writeAll(descriptor, bytes)
            if hashing { Self.hash(bytes, into: &hasher, and: &content) }
        }
        guard failure == 0 else { throw ODRPackError.system(.write, path, failure) }
        offset += UInt64(bytes.count)
        // Linux starts writing dirty pages only at 10% of memory; asking every 16 MB keeps the disk busy while the CPU
        // works, so the build's final wait for stable storage (docs/build-output.md, Durable) is short.
        unflushed += bytes.count
        if unflushed >= Self.writebackStep {
            SystemCall.startWriteback(descriptor)
            unflushed = 0
        }
    }

    /// The archive's hash of `bytes`, and the entry's (in the same pass) when there is one.
    private static func hash(
        _ bytes: UnsafeRawBufferPointer, into archive: inout SHA256Hasher, and entry: inout SHA256Hasher?
    ) {
        if entry != nil { SHA256Hasher.update(&archive, &entry!, with: bytes) } else { archive.update(bytes) }
    }

    private static let writebackStep = 16 << 20
    private static let overlapStep = 1 << 20
    private var unflushed = 0

    /// Hashes bytes already in the file, for an entry whose header was patched after its data.
    private func hashRegion(from start: UInt64, to end: UInt64) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var position = start
        while position < end {
            let count = SystemCall.readFully(
                descriptor, into: buffer.baseAddress!, count: Int(min(UInt64(buffer.count), end - position)),
                at: Int64(position))
            guard count > 0 else { throw readBackFailure(count) }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            position += UInt64(count)
        }
    }

    /// A read of what this writer wrote that came back short (0: someone truncated the file) or failed (-1).
    private func readBackFailure(_ result: Int) -> ODRPackError {
        result == 0
            ? .changed(.shortenedWhileWritten(path))
            : .system(.readBack, path)
    }

    private func sizeMismatch(_ name: [UInt8], expected: Int64, got: Int64) -> ODRPackError {
        .changed(.whileArchived(FilePath.shownText(of: name), bytes: got, expected: expected))
    }
}

/// The central directory's records until they spill or `finish` writes them: every name in one byte arena and the
/// rest in a fixed-size record, about 48 bytes an entry besides its name, not an array per name
/// (docs/build-output.md#bounded).
private struct CentralRecords {
    private struct Stored {
        let nameEnd: Int
        let compressedSize: UInt64
        let size: UInt64
        let offset: UInt64
        let crc: UInt32
        /// 0 for the standard mode of its kind (a real mode always has type bits).
        var mode: UInt32
        let method: UInt16
        let isFolder: Bool
    }

    private var names: [UInt8] = []
    private var stored: [Stored] = []

    var count: Int { stored.count }

    /// The bytes the records take (without the arrays' spare capacity, at most as much again).
    var memory: Int { names.count + stored.count * MemoryLayout<Stored>.stride }

    /// Forgets every record, keeping the arrays' capacity for the next ones.
    mutating func removeAll() {
        names.removeAll(keepingCapacity: true)
        stored.removeAll(keepingCapacity: true)
    }

    mutating func append(_ record: ZipHeaders.Record) {
        names.append(contentsOf: record.name)
        stored.append(
            Stored(
                nameEnd: names.count, compressedSize: record.compressedSize, size: record.size, offset: record.offset,
                crc: record.crc, mode: record.mode ?? 0, method: record.method, isFolder: record.isFolder))
    }

    mutating func setLastMode(_ mode: UInt32) { stored[stored.count - 1].mode = mode }

    func record(at index: Int) -> ZipHeaders.Record {
        let entry = stored[index]
        let start = index == 0 ? 0 : stored[index - 1].nameEnd
        var record = ZipHeaders.Record(
            name: Array(names[start..<entry.nameEnd]), method: entry.method, crc: entry.crc,
            compressedSize: entry.compressedSize, size: entry.size, offset: entry.offset, isFolder: entry.isFolder)
        if entry.mode != 0 { record.mode = entry.mode }
        return record
    }
}
