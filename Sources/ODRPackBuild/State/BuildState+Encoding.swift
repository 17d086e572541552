import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// The state file's bytes, written as a stream and used only when whole, undamaged and of this version:
///
///     magic line                      "odrpack-state 6 <tool version>\n"
///     head length, head, head CRC     everything but the file records: small, all the fast path reads
///     file count                      then that many records, in code-point order of their paths:
///     records                         the path's length (4 bytes), the path, the SHA-256's 32 bytes, size,
///                                     modification and change times, inode, device, the CRC-32 (4 bytes) and the
///                                     record's pack as its position among the head's packs (4 bytes)
///     files CRC                       CRC-32 of everything from the file count on
///
/// Integers are little-endian, 64 bits unless said; strings in the head are length-prefixed UTF-8. A record is
/// 84 bytes plus its path (docs/build-output.md#incremental). Each record names its pack, so a build merging the
/// records with its own files learns in the same pass which archive holds each one: format 4 kept the paths apart
/// and a list of positions per pack, which a reader had to hold whole.
extension BuildState {
    /// The state in `data`, or nil when it is not a whole state of this version.
    /// - Parameter fileRecords: false reads only the head (no file records), which the fast path needs; `data` may
    ///   then end after the head.
    static func parse(_ data: some ContiguousBytes, fileRecords: Bool = true) -> BuildState? {
        let bytes = data.withUnsafeBytes { Array($0) }
        return read(.bytes(bytes), size: Int64(bytes.count), fileRecords: fileRecords)
    }

    /// Reads the state file at `path` (only its head without `fileRecords`); nil when it is missing, unreadable,
    /// damaged or of another version. The file records are read once, a window at a time, to check them whole (their
    /// order and CRC) before any is used, and stay on disk behind the open descriptor: a build reads them again as it
    /// merges them with its own files (`StoredRecords`). The state is only ever replaced by a rename, so the bytes
    /// read later are the ones checked.
    static func read(_ path: FilePath, fileRecords: Bool) -> BuildState? {
        guard case .success(let descriptor) = SystemCall.openForReading(path) else { return nil }
        // Closed when the read is done, or when the state's records are no longer used.
        let file = StoredRecords.OpenFile(descriptor)
        // The open file's size (fstat): a rename in between must not pair another file's size with this one.
        guard let size = file.openedStamp?.size, size > 0 else { return nil }
        return read(.descriptor(file), size: size, fileRecords: fileRecords)
    }

    /// The state in `source`, `size` bytes long.
    private static func read(_ source: StoredRecords.Source, size: Int64, fileRecords: Bool) -> BuildState? {
        let whole = StoredRecords(source: source, start: 0, end: size, count: 0)
        func bytes(_ count: Int, at offset: Int64) -> [UInt8]? {
            guard count >= 0, Int64(count) <= size - offset else { return nil }
            var complete = false
            let read = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                complete = count == 0 || whole.read(into: buffer.baseAddress!, count: count, at: offset) == count
                initialized = complete ? count : 0
            }
            return complete ? read : nil
        }
        // The magic line and the head's length, then up to the end of the head and its CRC.
        let lead = Self.magic.count + 8
        guard let start = bytes(lead, at: 0),
            let headLength = start.withUnsafeBytes({ raw -> Int? in
                Int(exactly: Int64(littleEndian: raw.loadUnaligned(fromByteOffset: Self.magic.count, as: Int64.self)))
            }),
            headLength >= 0, Int64(headLength) <= size - Int64(lead) - 8,
            let head = bytes(lead + headLength + 8, at: 0),
            let parsed = try? head.withUnsafeBytes({ raw in
                var reader = Reader(bytes: raw)
                return try reader.checkedHead()
            })
        else { return nil }
        var state = parsed.0
        let fileCounts = parsed.1
        guard fileRecords else { return state }

        // The file count, the records, the files CRC.
        let filesStart = Int64(head.count)
        guard size - 8 >= filesStart + 8, let countBytes = bytes(8, at: filesStart),
            let trailer = bytes(8, at: size - 8)
        else { return nil }
        let count = countBytes.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(as: Int64.self)) }
        let expectedCRC = trailer.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(as: Int64.self)) }
        guard count >= 0, count <= (size - filesStart) / Int64(StateRecordReader.fixedSize) else { return nil }
        let records = StoredRecords(source: source, start: filesStart + 8, end: size - 8, count: Int(count))
        // Read once, before any record is used: every record whole, the paths strictly in code-point order (every
        // merge relies on it), each pack's count as the head says, the CRC.
        var crc = countBytes.withUnsafeBytes { CRC32.update(0, $0) }
        var perPack = [Int](repeating: 0, count: fileCounts.count)
        var previous: [UInt8] = []
        let reader = StateRecordReader(records)
        while reader.next() {
            crc = CRC32.update(crc, reader.bytes)
            let pack = reader.pack
            guard pack < perPack.count,
                reader.read == 1 || previous.withUnsafeBytes({ FileRecords.compare($0, reader.path) }) < 0
            else { return nil }
            perPack[pack] += 1
            previous.removeAll(keepingCapacity: true)
            previous.append(contentsOf: reader.path)
        }
        guard reader.atEnd, reader.read == Int(count), perPack == fileCounts.map(\.count), Int64(crc) == expectedCRC
        else { return nil }
        state.files = FileRecords(storage: .stored(records))
        return state
    }

    /// Writes the state to `file` as a stream through a `DocumentSink` (a chunk at a time), beside its final
    /// name and then renamed into place: a reader sees the old state, none (between the removal and the rename below:
    /// the next build then reads every file), or the whole new one; never a part.
    func write(to file: FilePath) throws {
        let temporary = TemporaryName.path(beside: file)
        let descriptor = try SystemCall.createFile(temporary)
        // Every chunk through `SystemCall.writeAll`, which retries short writes and reports ENOSPC as an error.
        var sink = DocumentSink { chunk in
            let failure = SystemCall.writeAll(descriptor, chunk)
            guard failure == 0 else { throw ODRPackError.system(.write, file, failure) }
        }
        do {
            try encode(into: &sink)
            try sink.flush()
        } catch {
            SystemCall.closeFile(descriptor)
            _ = SystemCall.removeFile(temporary)
            throw error
        }
        if SystemCall.closeFile(descriptor) != 0 {
            let failure = ODRPackError.system(.write, file)
            _ = SystemCall.removeFile(temporary)
            throw failure
        }
        // The old state goes first: a large file's replacing rename would make ext4 flush the new one.
        _ = SystemCall.removeFile(file)
        if let failure = SystemCall.rename(temporary, to: file) {
            _ = SystemCall.removeFile(temporary)
            throw ODRPackError.io(.move(to: file), path: temporary, failure)
        }
    }

    /// The whole state file's bytes, in memory: for tests and small states.
    func serialized() -> [UInt8] {
        // Appending to memory cannot fail.
        (try? DocumentSink.bytes { try encode(into: &$0) }) ?? []
    }

    /// Writes the state's bytes to `output` in order, holding none of it but the head.
    func encode(into sink: inout DocumentSink) throws {
        let head = try DocumentSink.bytes { sink in
            var writer = Writer(output: sink)
            try encodeHead(&writer)
            sink = writer.output
        }
        var writer = Writer(output: sink)
        try writer.raw(Self.magic)
        try writer.integer(head.count)
        writer.crc = 0
        try writer.raw(head)
        let headCRC = writer.crc
        try writer.integer(headCRC)
        writer.crc = 0
        try writer.integer(files.count)
        var fixed = [UInt8](repeating: 0, count: StateRecordReader.fixedSize - 4)
        let cursor = files.cursor()
        while cursor.next() {
            let stamp = cursor.stamp
            let digest = cursor.digest
            let pack = UInt32(truncatingIfNeeded: cursor.pack)
            try cursor.withPath { path in
                try withUnsafeBytes(of: UInt32(truncatingIfNeeded: path.count).littleEndian) { try writer.raw($0) }
                try writer.raw(path)
            }
            fixed.withUnsafeMutableBytes { raw in
                digest.withSHA256Bytes { raw.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: 32) }
                raw.storeBytes(of: stamp.size.littleEndian, toByteOffset: 32, as: Int64.self)
                raw.storeBytes(of: stamp.modificationNanoseconds.littleEndian, toByteOffset: 40, as: Int64.self)
                raw.storeBytes(of: stamp.changeNanoseconds.littleEndian, toByteOffset: 48, as: Int64.self)
                raw.storeBytes(of: stamp.inode.littleEndian, toByteOffset: 56, as: UInt64.self)
                raw.storeBytes(of: stamp.device.littleEndian, toByteOffset: 64, as: UInt64.self)
                raw.storeBytes(of: digest.crc32.littleEndian, toByteOffset: 72, as: UInt32.self)
                raw.storeBytes(of: pack.littleEndian, toByteOffset: 76, as: UInt32.self)
            }
            try writer.raw(fixed)
        }
        let filesCRC = writer.crc
        try writer.integer(filesCRC)
        sink = writer.output
    }

    /// Everything but the file records.
    private func encodeHead(_ writer: inout Writer) throws {
        try writer.integer(readStart == nil ? 0 : 1)
        if let readStart {
            try writer.integer(readStart.time == nil ? 0 : 1)
            try writer.integer(readStart.time ?? 0)
            try writer.integer(Int64(bitPattern: readStart.device))
            try writer.integer(readStart.tick)
        }
        try writer.string(rootPath)
        try writer.string(outputFingerprint)
        try writer.integer(outputs.count)
        for name in outputs.keys.sorted() {
            try writer.string(name)
            try writer.stamp(outputs[name]!)
        }
        try writer.integer(packs.count)
        for id in packs.keys.sorted() {
            let pack = packs[id]!
            for text in [id, pack.fileName, pack.archiveKey, pack.archiveSha256, pack.contentHash] {
                try writer.string(text)
            }
            try writer.integer(pack.archiveSize)
            try writer.integer(pack.uncompressedSize)
            try writer.string(pack.archiveStamp)
            try writer.string(pack.manifestPart?.key ?? "")
            try writer.integer(pack.manifestPart?.offset ?? 0)
            try writer.integer(pack.manifestPart?.length ?? 0)
            try writer.integer(pack.fileCount)
        }
        try writer.integer(replay == nil ? 0 : 1)
        if let replay {
            for text in [replay.inputs, replay.rootPath, replay.treeFingerprint] { try writer.string(text) }
            try writer.integer(replay.contentBytes)
            try writer.integer(replay.archiveBytes)
            try writer.integer(replay.absent.count)
            for name in replay.absent { try writer.string(name) }
            for list in [replay.diagnostics, replay.allowed] {
                try writer.integer(list.count)
                for diagnostic in list { try Self.write(diagnostic, to: &writer) }
            }
        }
    }

    /// One diagnostic of the replay: severity, code, message, location and subject.
    private static func write(_ diagnostic: Diagnostic, to writer: inout Writer) throws {
        for text in [diagnostic.severity.rawValue, diagnostic.code.rawValue, diagnostic.message] {
            try writer.string(text)
        }
        try writer.integer(diagnostic.location == nil ? 0 : 1)
        if let location = diagnostic.location {
            try writer.string(location.file)
            try writer.integer(location.line)
            try writer.integer(location.column)
        }
        try writer.integer(diagnostic.subject == nil ? 0 : 1)
        if let subject = diagnostic.subject { try writer.string(subject) }
    }

    /// Appends to a sink, keeping the CRC-32 of what it appended since `crc` was last set.
    private struct Writer {
        var output: DocumentSink
        var crc: UInt32 = 0

        mutating func raw(_ bytes: UnsafeRawBufferPointer) throws {
            crc = CRC32.update(crc, bytes)
            output.buffer.append(contentsOf: bytes)
            try output.flushIfFull()
        }

        mutating func raw(_ bytes: [UInt8]) throws {
            try bytes.withUnsafeBytes { try raw($0) }
        }

        mutating func integer<T: FixedWidthInteger>(_ value: T) throws {
            try withUnsafeBytes(of: Int64(value).littleEndian) { try raw($0) }
        }

        mutating func string(_ value: String) throws {
            var value = value
            try value.withUTF8 { utf8 in
                try integer(utf8.count)
                try raw(UnsafeRawBufferPointer(utf8))
            }
        }

        mutating func stamp(_ value: FileStamp) throws {
            try integer(value.size)
            try integer(value.modificationNanoseconds)
            try integer(value.changeNanoseconds)
            try integer(Int64(bitPattern: value.inode))
            try integer(Int64(bitPattern: value.device))
        }
    }

    private struct Reader {
        struct Damaged: Error {}

        let bytes: UnsafeRawBufferPointer
        var position = 0

        mutating func integer() throws -> Int64 {
            guard bytes.count - position >= 8 else { throw Damaged() }
            defer { position += 8 }
            return Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: Int64.self))
        }

        mutating func count(limit: Int) throws -> Int {
            let value = try integer()
            guard value >= 0, value <= limit else { throw Damaged() }
            return Int(value)
        }

        mutating func flag() throws -> Bool { try count(limit: 1) == 1 }

        mutating func string() throws -> String {
            let length = try count(limit: bytes.count - position - 8)
            defer { position += length }
            return String(
                decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)]), as: UTF8.self)
        }

        mutating func stamp() throws -> FileStamp {
            FileStamp(
                size: try integer(), modificationNanoseconds: try integer(), changeNanoseconds: try integer(),
                inode: UInt64(bitPattern: try integer()), device: UInt64(bitPattern: try integer()))
        }

        func crc(from start: Int) -> UInt32 {
            CRC32.update(0, UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        }

        /// The magic line, the head and its CRC, which must be all of `bytes`; the head, and how many files each pack
        /// holds (in id order).
        mutating func checkedHead() throws -> (BuildState, [(id: String, count: Int)]) {
            let magic = BuildState.magic
            guard bytes.count >= magic.count, bytes.prefix(magic.count).elementsEqual(magic) else { throw Damaged() }
            position = magic.count
            let headLength = try count(limit: bytes.count - position - 8)
            let headStart = position
            // The head is read within its own bounds, then its CRC.
            var head = Reader(bytes: UnsafeRawBufferPointer(rebasing: bytes[..<(headStart + headLength)]))
            head.position = headStart
            let (state, fileCounts) = try head.head()
            guard head.position == headStart + headLength else { throw Damaged() }
            position = head.position
            let headCRC = crc(from: headStart)
            guard try integer() == Int64(headCRC), position == bytes.count else { throw Damaged() }
            return (state, fileCounts)
        }

        /// The head, and how many files each pack lists (in id order).
        mutating func head() throws -> (BuildState, [(id: String, count: Int)]) {
            var state = BuildState()
            if try flag() {
                let hasTime = try flag()
                let time = try integer()
                let device = UInt64(bitPattern: try integer())
                let tick = try integer()
                guard tick >= 1, tick <= ReadStart.largestTick else { throw Damaged() }
                state.readStart = ReadStart(time: hasTime ? time : nil, device: device, tick: tick)
            }
            state.rootPath = try string()
            state.outputFingerprint = try string()
            for _ in 0..<(try count(limit: bytes.count)) {
                let name = try string()
                state.outputs[name] = try stamp()
            }
            var fileCounts: [(id: String, count: Int)] = []
            for _ in 0..<(try count(limit: bytes.count)) {
                let id = try string()
                let fileName = try string()
                let archiveKey = try string()
                let archiveSha256 = try string()
                let contentHash = try string()
                let archiveSize = try integer()
                let uncompressedSize = try integer()
                let archiveStamp = try string()
                let partKey = try string()
                let partOffset = try integer()
                let partLength = try integer()
                guard partOffset >= 0, partLength >= 0, fileCounts.last.map({ $0.id < id }) ?? true else {
                    throw Damaged()
                }
                fileCounts.append((id, try count(limit: Int(UInt32.max))))
                state.packs[id] = PackRecord(
                    fileName: fileName, archiveKey: archiveKey, archiveSize: archiveSize,
                    archiveSha256: archiveSha256, contentHash: contentHash,
                    uncompressedSize: uncompressedSize, archiveStamp: archiveStamp, fileCount: fileCounts.last!.count,
                    manifestPart: partKey.isEmpty
                        ? nil : ManifestPart(key: partKey, offset: partOffset, length: partLength))
            }
            if try flag() { state.replay = try replay() }
            return (state, fileCounts)
        }

        mutating func replay() throws -> Replay {
            var replay = Replay()
            replay.inputs = try string()
            replay.rootPath = try string()
            replay.treeFingerprint = try string()
            replay.contentBytes = try integer()
            replay.archiveBytes = try integer()
            replay.absent = try (0..<(try count(limit: bytes.count))).map { _ in try string() }
            replay.diagnostics = try diagnostics()
            replay.allowed = try diagnostics()
            return replay
        }

        /// A count, then that many diagnostics as `write(_:to:)` wrote them.
        mutating func diagnostics() throws -> [Diagnostic] {
            var diagnostics: [Diagnostic] = []
            for _ in 0..<(try count(limit: bytes.count)) {
                guard let severity = Diagnostic.Severity(rawValue: try string()),
                    let code = DiagnosticCode(rawValue: try string())
                else { throw Damaged() }
                let message = try string()
                var location: SourceLocation?
                if try flag() {
                    let file = try string()
                    location = SourceLocation(file: file, line: Int(try integer()), column: Int(try integer()))
                }
                let subject = try flag() ? try string() : nil
                diagnostics.append(Diagnostic(severity, code, message, at: location, subject: subject))
            }
            return diagnostics
        }
    }
}
