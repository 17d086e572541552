import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// A state's file records, sorted by path in code-point order, without a heap object per file: a build keeps one for
/// each of up to a million files (docs/performance.md). Three forms hold the same records:
/// - `table`: the state file's own bytes (`BuildState+Encoding`), one allocation for all records, read by offset;
/// - `plan`: a view of the build's plan and its packs' digests, made at the commit (`BuildState.make`) and written as
///   a stream, never copied;
/// - `array`: plain values, for small states made by hand (tests) and for a record changed by assignment.
struct FileRecords: RandomAccessCollection, ExpressibleByArrayLiteral, Equatable, Sendable {
    /// The record layout of `table`: digest, stamp, path start, CRC-32 (`BuildState+Encoding`).
    static let recordSize = 84

    enum Storage: Sendable {
        case array([BuildState.FileRecord])
        case table(Table)
        case plan(PlanView)
    }

    /// The file section of a state file: `count` records of `recordSize` bytes from `records`, then the paths'
    /// bytes from `paths` (a record's path ends where the next one's starts).
    struct Table: Sendable {
        let bytes: [UInt8]
        let count: Int
        let records: Int
        let paths: Int
        let pathBytes: Int
    }

    /// The files of a plan's packs in code-point order of their paths: `order` holds each file's pack (high 32 bits)
    /// and its index in the pack's files.
    struct PlanView: Sendable {
        let packs: [AssetPack]
        let digests: [[FileDigest]]
        let order: [UInt64]
    }

    private(set) var storage: Storage
    /// Set by `BuildState.load`: a record whose stamp this read start does not vouch for reads with
    /// `FileRecords.unknownStamp`, which no file has, so every use of the records reads that file again.
    private var gate: (start: ReadStart?, on: Bool) = (nil, false)

    /// The stamp of no file.
    static let unknownStamp = FileStamp(size: -1, modificationNanoseconds: 0, changeNanoseconds: 0, inode: 0, device: 0)

    init(storage: Storage) { self.storage = storage }

    init(arrayLiteral elements: BuildState.FileRecord...) { storage = .array(elements) }

    init(_ records: [BuildState.FileRecord]) { storage = .array(records) }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case .array(let records): return records.count
        case .table(let table): return table.count
        case .plan(let view): return view.order.count
        }
    }

    /// Gives records whose stamps `start` does not vouch for the unknown stamp (`BuildState.vouches(for:)`).
    mutating func gate(by start: ReadStart?) {
        if case .array(var records) = storage {
            for index in records.indices where !(start?.vouches(for: records[index].stamp) ?? false) {
                records[index].stamp = Self.unknownStamp
            }
            storage = .array(records)
            return
        }
        gate = (start, true)
    }

    subscript(position: Int) -> BuildState.FileRecord {
        get {
            if case .array(let records) = storage { return records[position] }
            return BuildState.FileRecord(
                path: path(at: position), stamp: stamp(at: position), digest: digest(at: position))
        }
        set {
            var records = Array(self)
            records[position] = newValue
            storage = .array(records)
            gate = (nil, false)
        }
    }

    func stamp(at position: Int) -> FileStamp {
        let stamp: FileStamp
        switch storage {
        case .array(let records): return records[position].stamp
        case .table(let table):
            stamp = table.bytes.withUnsafeBytes { raw in
                let base = table.records + position * Self.recordSize
                return FileStamp(
                    size: Int64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 32, as: Int64.self)),
                    modificationNanoseconds: Int64(
                        littleEndian: raw.loadUnaligned(fromByteOffset: base + 40, as: Int64.self)),
                    changeNanoseconds: Int64(
                        littleEndian: raw.loadUnaligned(fromByteOffset: base + 48, as: Int64.self)),
                    inode: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 56, as: UInt64.self)),
                    device: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 64, as: UInt64.self)))
            }
        case .plan(let view):
            let item = view.order[position]
            stamp = view.packs[Int(item >> 32)].files[Int(item & 0xFFFF_FFFF)].stamp
        }
        guard gate.on else { return stamp }
        return gate.start?.vouches(for: stamp) == true ? stamp : Self.unknownStamp
    }

    func digest(at position: Int) -> FileDigest {
        switch storage {
        case .array(let records): return records[position].digest
        case .table(let table):
            return table.bytes.withUnsafeBytes { raw in
                let base = table.records + position * Self.recordSize
                return FileDigest(
                    sha256Bytes: UnsafeRawBufferPointer(rebasing: raw[base..<(base + 32)]),
                    crc32: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: base + 80, as: UInt32.self)))
            }
        case .plan(let view):
            let item = view.order[position]
            return view.digests[Int(item >> 32)][Int(item & 0xFFFF_FFFF)]
        }
    }

    /// Calls `body` with the UTF-8 bytes of the record's path.
    func withPath<Result>(at position: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch storage {
        case .array(let records):
            var path = records[position].path
            return try path.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        case .table(let table):
            return try table.bytes.withUnsafeBytes { raw in
                let (start, end) = Self.pathRange(table, raw, position)
                return try body(UnsafeRawBufferPointer(rebasing: raw[(table.paths + start)..<(table.paths + end)]))
            }
        case .plan(let view):
            let item = view.order[position]
            var path = view.packs[Int(item >> 32)].files[Int(item & 0xFFFF_FFFF)].path
            return try path.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Where a table record's path is in the path bytes.
    static func pathRange(_ table: Table, _ raw: UnsafeRawBufferPointer, _ position: Int) -> (Int, Int) {
        // Truncating: a forged start of 2^63 or more reads as negative, which the parser's order check rejects.
        func start(_ index: Int) -> Int {
            Int(
                truncatingIfNeeded: UInt64(
                    littleEndian: raw.loadUnaligned(
                        fromByteOffset: table.records + index * recordSize + 72, as: UInt64.self)))
        }
        return (start(position), position + 1 < table.count ? start(position + 1) : table.pathBytes)
    }

    func path(at position: Int) -> String {
        withPath(at: position) { String(decoding: $0, as: UTF8.self) }
    }

    /// The record's path compared with `other` by bytes (code-point order): negative, zero or positive.
    func comparePath(at position: Int, with other: UnsafeRawBufferPointer) -> Int {
        withPath(at: position) { Self.compare($0, other) }
    }

    /// Whether the record's path has the bytes of `path`.
    func pathHasSameBytes(at position: Int, as path: String) -> Bool {
        var path = path
        return path.withUTF8 { comparePath(at: position, with: UnsafeRawBufferPointer($0)) == 0 }
    }

    /// Whether the record's path precedes `path` in code-point order.
    func pathPrecedes(at position: Int, _ path: String) -> Bool {
        var path = path
        return path.withUTF8 { comparePath(at: position, with: UnsafeRawBufferPointer($0)) < 0 }
    }

    /// Byte order of two strings' UTF-8: memcmp over the common part, then the shorter first.
    static func compare(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int {
        let common = Swift.min(left.count, right.count)
        if common > 0 {
            let order = memcmp(left.baseAddress!, right.baseAddress!, common)
            if order != 0 { return Int(order) }
        }
        return left.count - right.count
    }

    /// The position of the record of `path`, found by binary search.
    func index(ofPath path: String) -> Int? {
        var path = path
        return path.withUTF8 { utf8 in
            let query = UnsafeRawBufferPointer(utf8)
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) / 2
                if comparePath(at: middle, with: query) < 0 { low = middle + 1 } else { high = middle }
            }
            return low < count && comparePath(at: low, with: query) == 0 ? low : nil
        }
    }

    static func == (lhs: FileRecords, rhs: FileRecords) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count {
            guard lhs.stamp(at: index) == rhs.stamp(at: index), lhs.digest(at: index) == rhs.digest(at: index),
                lhs.withPath(at: index, { left in rhs.withPath(at: index) { compare(left, $0) == 0 } })
            else { return false }
        }
        return true
    }
}
