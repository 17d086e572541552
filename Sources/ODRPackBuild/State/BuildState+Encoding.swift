import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// The state file's bytes: the magic line, then little-endian 64-bit integers and length-prefixed UTF-8 strings,
/// read back only when whole and of this version.
extension BuildState {
    /// The state in `data`, or nil when it is not a whole state of this version.
    /// - Parameter fileRecords: false reads all but the file records (left empty), which the fast path does not need.
    static func parse(_ data: some ContiguousBytes, fileRecords: Bool = true) -> BuildState? {
        data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw)
            return try? reader.state(fileRecords: fileRecords)
        }
    }

    func serialized() -> [UInt8] {
        var writer = Writer()
        writer.out.reserveCapacity(64 + files.count * 160 + packs.count * 400)
        writer.out += Self.magic
        writer.integer(readStart == nil ? 0 : 1)
        if let readStart {
            writer.integer(readStart.time == nil ? 0 : 1)
            writer.integer(readStart.time ?? 0)
            writer.integer(Int64(bitPattern: readStart.device))
            writer.integer(readStart.tick)
        }
        writer.string(rootPath)
        writer.string(outputFingerprint)
        writer.integer(outputs.count)
        for name in outputs.keys.sorted() {
            writer.string(name)
            writer.stamp(outputs[name]!)
        }
        // The file records come last, so the fast path can stop before them (`parse(_:fileRecords:)`).
        writer.integer(files.count)
        writer.integer(packs.count)
        for id in packs.keys.sorted() {
            let pack = packs[id]!
            for text in [id, pack.fileName, pack.archiveKey, pack.archiveSha256, pack.contentHash] {
                writer.string(text)
            }
            writer.integer(pack.archiveSize)
            writer.integer(pack.uncompressedSize)
            writer.string(pack.archiveStamp)
            writer.string(pack.manifestPart?.key ?? "")
            writer.integer(pack.manifestPart?.offset ?? 0)
            writer.integer(pack.manifestPart?.length ?? 0)
            writer.integer(pack.files.count)
            for position in pack.files { writer.integer(position) }
        }
        writer.integer(replay == nil ? 0 : 1)
        if let replay {
            for text in [replay.inputs, replay.rootPath, replay.treeFingerprint] { writer.string(text) }
            writer.integer(replay.contentBytes)
            writer.integer(replay.archiveBytes)
            writer.integer(replay.absent.count)
            for name in replay.absent { writer.string(name) }
            writer.integer(replay.diagnostics.count)
            for diagnostic in replay.diagnostics {
                for text in [diagnostic.severity.rawValue, diagnostic.code.rawValue, diagnostic.message] {
                    writer.string(text)
                }
                writer.integer(diagnostic.location == nil ? 0 : 1)
                if let location = diagnostic.location {
                    writer.string(location.file)
                    writer.integer(location.line)
                    writer.integer(location.column)
                }
                writer.integer(diagnostic.subject == nil ? 0 : 1)
                if let subject = diagnostic.subject { writer.string(subject) }
            }
        }
        for file in files {
            writer.string(file.path)
            writer.stamp(file.stamp)
            writer.string(file.digest.sha256)
            writer.integer(file.digest.crc32)
        }
        return writer.out
    }

    private struct Writer {
        var out: [UInt8] = []

        mutating func integer<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: Int64(value).littleEndian) { out.append(contentsOf: $0) }
        }

        mutating func string(_ value: String) {
            var value = value
            value.withUTF8 { utf8 in
                integer(utf8.count)
                out.append(contentsOf: utf8)
            }
        }

        mutating func stamp(_ value: FileStamp) {
            integer(value.size)
            integer(value.modificationNanoseconds)
            integer(value.changeNanoseconds)
            integer(Int64(bitPattern: value.inode))
            integer(Int64(bitPattern: value.device))
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

        mutating func state(fileRecords: Bool) throws -> BuildState {
            let magic = BuildState.magic
            guard bytes.count >= magic.count, bytes.prefix(magic.count).elementsEqual(magic) else { throw Damaged() }
            position = magic.count
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
            let fileCount = try count(limit: bytes.count / 64)
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
                guard partOffset >= 0, partLength >= 0 else { throw Damaged() }
                let files = try (0..<(try count(limit: fileCount))).map { _ in try count(limit: fileCount - 1) }
                state.packs[id] = PackRecord(
                    fileName: fileName, archiveKey: archiveKey, archiveSize: archiveSize,
                    archiveSha256: archiveSha256, contentHash: contentHash,
                    uncompressedSize: uncompressedSize, archiveStamp: archiveStamp, files: files,
                    manifestPart: partKey.isEmpty
                        ? nil : ManifestPart(key: partKey, offset: partOffset, length: partLength))
            }
            if try flag() { state.replay = try replay() }
            guard fileRecords else { return state }
            state.files.reserveCapacity(fileCount)
            for _ in 0..<fileCount {
                let path = try string()
                let stamp = try stamp()
                let sha256 = try string()
                guard let crc32 = UInt32(exactly: try integer()) else { throw Damaged() }
                state.files.append(
                    FileRecord(path: path, stamp: stamp, digest: FileDigest(sha256: sha256, crc32: crc32)))
            }
            guard position == bytes.count else { throw Damaged() }
            return state
        }

        mutating func replay() throws -> Replay {
            var replay = Replay()
            replay.inputs = try string()
            replay.rootPath = try string()
            replay.treeFingerprint = try string()
            replay.contentBytes = try integer()
            replay.archiveBytes = try integer()
            replay.absent = try (0..<(try count(limit: bytes.count))).map { _ in try string() }
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
                replay.diagnostics.append(Diagnostic(severity, code, message, at: location, subject: subject))
            }
            return replay
        }
    }
}
