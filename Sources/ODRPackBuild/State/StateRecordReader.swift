import ODRPackBuildFormat
import ODRPackPlatform

/// Reads a state's file records in order through a small window (`StoredRecords`): the build merges them with its own
/// sorted files instead of holding them (docs/build-output.md#incremental). A record (`BuildState+Encoding`) is its
/// path's length (4 bytes), the path, the SHA-256's 32 bytes, size, modification and change times, inode and device
/// (8 bytes each), the CRC-32 and its pack's position among the state's packs in id order (4 bytes each).
/// Single-threaded: each merge makes its own.
final class StateRecordReader {
    /// A record's bytes besides its path.
    static let fixedSize = 84

    private let records: StoredRecords
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes of the window that hold the file's bytes from `windowOffset` on.
    private var filled = 0
    private var windowOffset: Int64
    /// The current record, in the window.
    private var recordStart = 0
    private var recordLength = 0
    /// Set when the bytes are not a record (cut short, a length beyond the end, a failed read): `next` then ends.
    private(set) var damaged = false
    /// How many records `next` has returned.
    private(set) var read = 0

    init(_ records: StoredRecords, windowSize: Int = 1 << 17) {
        self.records = records
        capacity = max(windowSize, Self.fixedSize)
        buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        windowOffset = records.start
    }

    deinit { buffer.deallocate() }

    /// Moves to the next record: false after the last one, or at damage (`damaged`).
    func next() -> Bool {
        var start = recordStart + recordLength
        let offset = windowOffset + Int64(start)
        guard !damaged, offset < records.end else { return false }
        guard ensure(&start, 4) else { return fail() }
        let pathLength = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
        let length = Self.fixedSize + pathLength
        guard Int64(length) <= records.end - offset, ensure(&start, length) else { return fail() }
        recordStart = start
        recordLength = length
        read += 1
        return true
    }

    /// Whether every byte up to the records' end was read as a record.
    var atEnd: Bool { !damaged && windowOffset + Int64(recordStart + recordLength) == records.end }

    private func fail() -> Bool {
        damaged = true
        recordLength = 0
        return false
    }

    /// Makes `count` bytes from `start` (moved when the window moves) readable in the window.
    private func ensure(_ start: inout Int, _ count: Int) -> Bool {
        if filled - start >= count { return true }
        let kept = filled - start
        if start > 0 {
            buffer.copyMemory(from: buffer + start, byteCount: kept)
            windowOffset += Int64(start)
            filled = kept
            recordStart = 0
            recordLength = 0
            start = 0
        }
        if count > capacity {
            // Only a path longer than the window: bounded by the records' end, which `next` checked.
            let larger = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 8)
            larger.copyMemory(from: buffer, byteCount: filled)
            buffer.deallocate()
            buffer = larger
            capacity = count
        }
        let wanted = Int(min(Int64(capacity - filled), records.end - (windowOffset + Int64(filled))))
        if wanted > 0 {
            let got = records.read(into: buffer + filled, count: wanted, at: windowOffset + Int64(filled))
            guard got == wanted else { return false }
            filled += got
        }
        return filled >= count
    }

    /// The current record's path's bytes, valid until `next`.
    var path: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: buffer + recordStart + 4, count: recordLength - Self.fixedSize)
    }

    /// The current record's bytes, valid until `next`.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: buffer + recordStart, count: recordLength) }

    private var fixed: Int { recordStart + recordLength - Self.fixedSize + 4 }

    var digest: FileDigest {
        FileDigest(
            sha256Bytes: UnsafeRawBufferPointer(start: buffer + fixed, count: 32),
            crc32: UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: fixed + 72, as: UInt32.self)))
    }

    var stamp: FileStamp {
        let base = fixed
        func integer(_ at: Int) -> Int64 {
            Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: at, as: Int64.self))
        }
        return FileStamp(
            size: integer(base + 32), modificationNanoseconds: integer(base + 40),
            changeNanoseconds: integer(base + 48),
            inode: UInt64(bitPattern: integer(base + 56)), device: UInt64(bitPattern: integer(base + 64)))
    }

    /// The position of the record's pack among the state's packs in id order.
    var pack: Int { Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: fixed + 76, as: UInt32.self))) }
}
