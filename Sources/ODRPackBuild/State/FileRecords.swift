import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// A state's file records, sorted by path in code-point order, never held as a heap object per file: a build keeps
/// one for each of up to a million files (docs/performance.md). They are read in order, a record at a time, through a
/// `Cursor`, and merged with the build's own sorted files. Three forms hold the same records:
/// - `stored`: a state file's records where they lie (`StoredRecords`), read through a small window;
/// - `plan`: a view of the build's plan and its packs' digests, made at the commit (`BuildState.make`) and written as
///   a stream, never copied;
/// - `array`: plain values, for small states made by hand (tests).
struct FileRecords: Sequence, ExpressibleByArrayLiteral, Equatable, Sendable {
    enum Storage: Sendable {
        case array([BuildState.FileRecord])
        case stored(StoredRecords)
        case plan(PlanView)
    }

    /// The files of a plan's packs in code-point order of their paths: `order` holds each file's pack (high 32 bits)
    /// and its index in the pack's files; `numbers` each pack's position among the packs in id order.
    struct PlanView: Sendable {
        let packs: [AssetPack]
        let digests: [[FileDigest]]
        let order: [UInt64]
        let numbers: [Int]
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

    var count: Int {
        switch storage {
        case .array(let records): return records.count
        case .stored(let stored): return stored.count
        case .plan(let view): return view.order.count
        }
    }

    var isEmpty: Bool { count == 0 }

    var underestimatedCount: Int { count }

    /// Gives records whose stamps `start` does not vouch for the unknown stamp (`BuildState.vouches(for:)`).
    mutating func gate(by start: ReadStart?) {
        gate = (start, true)
    }

    /// `stamp` as the gate lets it through.
    func gated(_ stamp: FileStamp) -> FileStamp {
        guard gate.on else { return stamp }
        return gate.start?.vouches(for: stamp) == true ? stamp : Self.unknownStamp
    }

    /// Reads the records in order, one at a time.
    func cursor() -> Cursor { Cursor(self) }

    /// Reads the records in order: each one's path (valid until `next`), stamp (through the gate), digest and pack.
    final class Cursor {
        private let records: FileRecords
        private let reader: StateRecordReader?
        private var position = -1
        private var pathBytes: [UInt8] = []

        init(_ records: FileRecords) {
            self.records = records
            if case .stored(let stored) = records.storage { reader = StateRecordReader(stored) } else { reader = nil }
        }

        /// Moves to the next record; false after the last (or at bytes that are not a record).
        func next() -> Bool {
            if let reader { return reader.next() }
            position += 1
            guard position < records.count else { return false }
            pathBytes.removeAll(keepingCapacity: true)
            switch records.storage {
            case .array(let array): pathBytes.append(contentsOf: array[position].path.utf8)
            case .plan(let view): pathBytes.append(contentsOf: view.file(at: position).path.utf8)
            case .stored: break
            }
            return true
        }

        func withPath<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
            if let reader { return try body(reader.path) }
            return try pathBytes.withUnsafeBytes(body)
        }

        /// The record's path compared with `other` by bytes: negative, zero or positive.
        func comparePath(with other: UnsafeRawBufferPointer) -> Int {
            withPath { FileRecords.compare($0, other) }
        }

        var stamp: FileStamp {
            let stamp: FileStamp
            switch records.storage {
            case .array(let array): stamp = array[position].stamp
            case .plan(let view): stamp = view.file(at: position).stamp
            case .stored: stamp = reader!.stamp
            }
            return records.gated(stamp)
        }

        var digest: FileDigest {
            switch records.storage {
            case .array(let array): return array[position].digest
            case .plan(let view):
                let item = view.order[position]
                return view.digests[Int(item >> 32)][Int(item & 0xFFFF_FFFF)]
            case .stored: return reader!.digest
            }
        }

        /// The position of the record's pack among the state's packs in id order.
        var pack: Int {
            switch records.storage {
            case .array(let array): return array[position].pack
            case .plan(let view): return view.numbers[Int(view.order[position] >> 32)]
            case .stored: return reader!.pack
            }
        }

        var record: BuildState.FileRecord {
            BuildState.FileRecord(
                path: withPath { String(decoding: $0, as: UTF8.self) }, stamp: stamp, digest: digest, pack: pack)
        }
    }

    struct Iterator: IteratorProtocol {
        let cursor: Cursor

        mutating func next() -> BuildState.FileRecord? { cursor.next() ? cursor.record : nil }
    }

    func makeIterator() -> Iterator { Iterator(cursor: cursor()) }

    /// Byte order of two strings' UTF-8: memcmp over the common part, then the shorter first.
    static func compare(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int {
        let common = Swift.min(left.count, right.count)
        if common > 0 {
            let order = memcmp(left.baseAddress!, right.baseAddress!, common)
            if order != 0 { return Int(order) }
        }
        return left.count - right.count
    }

    static func == (lhs: FileRecords, rhs: FileRecords) -> Bool {
        guard lhs.count == rhs.count else { return false }
        let left = lhs.cursor()
        let right = rhs.cursor()
        while left.next() {
            guard right.next(), left.record == right.record else { return false }
        }
        return !right.next()
    }
}

extension FileRecords.PlanView {
    /// The file at a position of `order`.
    func file(at position: Int) -> ResolvedResource {
        let item = order[position]
        return packs[Int(item >> 32)].files[Int(item & 0xFFFF_FFFF)]
    }
}
