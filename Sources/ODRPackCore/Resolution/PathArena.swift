import Foundation

/// The path bytes of every resource of one resolution, back to back in chunks that never move: a million paths of 41
/// bytes take 41 MB here instead of a 96-byte string each (docs/performance.md#scale). A resource names its bytes by a
/// `Slot`; paths are compared by these bytes (memcmp), never as Swift strings, whose equality is canonical.
///
/// `@unchecked Sendable` because: it is appended to only while one resolution is made, by the one thread making it,
/// and before any resource naming its bytes leaves that thread; from then on it is only read. Bytes once written
/// never change or move (a full chunk is left as it is and a new one taken), so a slot stays valid for the arena's
/// life, and each resource holds its arena.
package final class PathArena: @unchecked Sendable {
    /// Where a path's bytes are: the chunk (24 bits), the offset in it (20 bits) and the length (20 bits), in one
    /// word. A path of `Slot.ownChunk` bytes or more has a chunk of its own, whose size is its length. 2^24 chunks
    /// are out of reach: all but the first dozen hold 1 MiB or more, 16 TB in all.
    package struct Slot: Sendable {
        fileprivate let bits: UInt64
        fileprivate init(chunk: Int, offset: Int, length: Int) {
            bits = UInt64(chunk) << 40 | UInt64(offset) << 20 | UInt64(min(length, Self.ownChunk))
        }
        fileprivate var chunk: Int { Int(bits >> 40) }
        fileprivate var offset: Int { Int(bits >> 20 & 0xF_FFFF) }
        fileprivate var length: Int { Int(bits & 0xF_FFFF) }
        /// The length field's largest value: the path fills a chunk of its own.
        fileprivate static let ownChunk = 0xF_FFFF
    }

    /// The largest shared chunk; chunks grow by doubling up to it, so an arena of one path is as small as that path.
    static let chunkLimit = 1 << 20

    private var chunks: [UnsafeMutableRawBufferPointer] = []
    /// Bytes used in the last shared chunk.
    private var used = 0
    /// The last shared chunk's index, -1 before the first.
    private var current = -1

    /// - Parameter capacity: the bytes expected, for the first chunk (at most `chunkLimit`).
    package init(capacity: Int = 0) {
        if capacity > 0 { newChunk(min(capacity, Self.chunkLimit)) }
    }

    deinit { for chunk in chunks { chunk.deallocate() } }

    /// Each folder's path, stored once: a file in a folder stores the folder's number and its own name
    /// (`append(name:folder:)`), 20 bytes instead of 41 for the scale tree's paths.
    private var folders: [Slot] = []

    /// Stores a folder's path (not empty, no trailing slash); returns its number.
    func addFolder(_ path: String) -> UInt32 {
        folders.append(append(path))
        return UInt32(truncatingIfNeeded: folders.count - 1)
    }

    /// Stores a file's name after its folder's number (4 bytes): `path(folder:name:)` gives its path back.
    func append(name: String, folder: UInt32) -> Slot {
        withUnsafeBytes(of: folder.littleEndian) { number in
            var name = name
            return name.withUTF8 { name in
                append(number.assumingMemoryBound(to: UInt8.self), name, separated: false)
            }
        }
    }

    /// Calls `body` with `folder/name` for the bytes of a slot made by `append(name:folder:)`, joined in a
    /// temporary buffer (on the stack for any usual path).
    func withFolderPath<Result>(_ stored: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Result)
        rethrows -> Result
    {
        let folder = bytes(folders[Int(UInt32(littleEndian: stored.loadUnaligned(as: UInt32.self)))])
        let name = UnsafeRawBufferPointer(rebasing: stored[4...])
        return try withUnsafeTemporaryAllocation(byteCount: folder.count + 1 + name.count, alignment: 1) { joined in
            joined.baseAddress!.copyMemory(from: folder.baseAddress!, byteCount: folder.count)
            joined[folder.count] = UInt8(ascii: "/")
            if name.count > 0 {
                (joined.baseAddress! + folder.count + 1).copyMemory(from: name.baseAddress!, byteCount: name.count)
            }
            return try body(UnsafeRawBufferPointer(joined))
        }
    }

    /// Whether two slots made by `append(name:folder:)` name the same folder; then their names decide their order.
    static func sameFolder(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        first.loadUnaligned(as: UInt32.self) == second.loadUnaligned(as: UInt32.self)
    }

    /// The bytes the arena holds for paths (what it allocated, spare room included).
    package var allocatedBytes: Int { chunks.reduce(0) { $0 + $1.count } }

    /// Stores `first`, and when given, a NUL and `second` after it (a path holds no NUL).
    func append(_ first: String, _ second: String? = nil) -> Slot {
        var first = first
        var second = second
        return first.withUTF8 { head in
            guard second != nil else { return append(head, nil, separated: true) }
            return second!.withUTF8 { tail in append(head, tail, separated: true) }
        }
    }

    /// Stores `head`, then (with `separated`, a NUL and) `tail`.
    private func append(_ head: UnsafeBufferPointer<UInt8>, _ tail: UnsafeBufferPointer<UInt8>?, separated: Bool)
        -> Slot
    {
        let gap = separated ? 1 : 0
        let length = head.count + (tail.map { $0.count + gap } ?? 0)
        let target: UnsafeMutableRawBufferPointer
        let slot: Slot
        if length >= Slot.ownChunk {
            target = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 1)
            chunks.append(target)
            slot = Slot(chunk: chunks.count - 1, offset: 0, length: length)
        } else {
            // A full chunk takes nothing more, not even an empty path: its offset would not fit the slot's 20 bits.
            if current < 0 || chunks[current].count - used < max(length, 1) {
                let last = current < 0 ? 0 : chunks[current].count
                newChunk(max(length, min(Self.chunkLimit, max(256, 2 * last))))
            }
            target = UnsafeMutableRawBufferPointer(rebasing: chunks[current][used..<used + length])
            slot = Slot(chunk: current, offset: used, length: length)
            used += length
        }
        if let base = head.baseAddress { target.baseAddress!.copyMemory(from: base, byteCount: head.count) }
        if let tail {
            if separated { target[head.count] = 0 }
            if let base = tail.baseAddress {
                (target.baseAddress! + head.count + gap).copyMemory(from: base, byteCount: tail.count)
            }
        }
        return slot
    }

    private func newChunk(_ size: Int) {
        chunks.append(UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1))
        current = chunks.count - 1
        used = 0
    }

    /// The bytes at `slot`; valid while the arena lives.
    func bytes(_ slot: Slot) -> UnsafeRawBufferPointer {
        let chunk = chunks[slot.chunk]
        let length = slot.length == Slot.ownChunk ? chunk.count : slot.length
        return UnsafeRawBufferPointer(rebasing: chunk[slot.offset..<slot.offset + length])
    }
}

extension UnsafeRawBufferPointer {
    /// Code-point order of two UTF-8 paths: byte order, a prefix first (`String.precedesByCodePoint` on bytes).
    package func precedesByCodePoint(_ other: UnsafeRawBufferPointer) -> Bool {
        let common = Swift.min(count, other.count)
        if common > 0 {
            let order = memcmp(baseAddress!, other.baseAddress!, common)
            if order != 0 { return order < 0 }
        }
        return count < other.count
    }

    /// Byte equality.
    package func hasSameBytes(as other: UnsafeRawBufferPointer) -> Bool {
        count == other.count && (count == 0 || memcmp(baseAddress!, other.baseAddress!, count) == 0)
    }
}
