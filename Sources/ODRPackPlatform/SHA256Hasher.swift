import CSHA256
import Crypto

/// Incremental SHA-256 giving lowercase hex: swift-crypto's. The one exception is a pair of hashers that take the same
/// bytes (an archive and the entry it holds, `update(_:_:with:)`): where the CPU has SHA extensions, `paired()`
/// hashers run odrpack's own block function, which compresses both in one interleaved pass, faster than two
/// swift-crypto updates (docs/performance.md#where-the-time-goes). That is CSHA256's only use.
package struct SHA256Hasher {
    /// Whether the CPU has the SHA extensions (decided once per process).
    static let accelerated = odrpack_sha256_accelerated() != 0

    /// swift-crypto's hasher, used unless `blocks` is.
    private var crypto: SHA256?
    private var blocks: SHA256Blocks

    package init() { self.init(ownBlocks: false) }

    /// A hasher meant to be one of a pair in `update(_:_:with:)`.
    package static func paired() -> SHA256Hasher { SHA256Hasher(ownBlocks: accelerated) }

    /// - Parameter ownBlocks: use odrpack's block function (the SHA extensions where the CPU has them, portable C
    ///   otherwise); tests check both paths on any machine.
    init(ownBlocks: Bool) {
        crypto = ownBlocks ? nil : SHA256()
        blocks = SHA256Blocks()
    }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        if crypto != nil { crypto!.update(bufferPointer: bytes) } else { blocks.update(bytes) }
    }

    package mutating func update(_ text: String) {
        Array(text.utf8).withUnsafeBytes { update($0) }
    }

    /// The same bytes into two hashers: with the SHA extensions the two are compressed interleaved, faster than two
    /// `update` calls.
    package static func update(
        _ first: inout SHA256Hasher, _ second: inout SHA256Hasher, with bytes: UnsafeRawBufferPointer
    ) {
        guard first.crypto == nil, second.crypto == nil else {
            first.update(bytes)
            second.update(bytes)
            return
        }
        SHA256Blocks.update(&first.blocks, &second.blocks, with: bytes)
    }

    package func finalize() -> String {
        if let crypto { return crypto.finalize().hexString }
        return blocks.finalize().hexString
    }

    /// The SHA-256 of `bytes` in one call.
    package static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }
}

/// SHA-256 over `odrpack_sha256_blocks` (FIPS 180-4): the chaining state, the bytes of an unfinished block, and the
/// message length. Plain values, no allocation.
struct SHA256Blocks {
    private var state = SIMD8<UInt32>(
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    private var pending = SIMD64<UInt8>()
    private var pendingCount = 0
    private var length: UInt64 = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        let rest = topUp(bytes)
        let whole = rest.count / 64
        if whole > 0 { compress(rest.baseAddress!, whole) }
        keep(UnsafeRawBufferPointer(rebasing: rest[(whole * 64)...]))
    }

    static func update(_ first: inout SHA256Blocks, _ second: inout SHA256Blocks, with bytes: UnsafeRawBufferPointer) {
        first.length &+= UInt64(bytes.count)
        second.length &+= UInt64(bytes.count)
        // Each hasher first completes its own unfinished block, so their whole blocks start at different offsets.
        let firstRest = first.topUp(bytes)
        let secondRest = second.topUp(bytes)
        let firstWhole = firstRest.count / 64
        let secondWhole = secondRest.count / 64
        let paired = min(firstWhole, secondWhole)
        if paired > 0 {
            withUnsafeMutableBytes(of: &first.state) { firstState in
                withUnsafeMutableBytes(of: &second.state) { secondState in
                    odrpack_sha256_blocks2(
                        firstState.baseAddress!.assumingMemoryBound(to: UInt32.self),
                        firstRest.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        secondState.baseAddress!.assumingMemoryBound(to: UInt32.self),
                        secondRest.baseAddress!.assumingMemoryBound(to: UInt8.self), paired)
                }
            }
        }
        if firstWhole > paired { first.compress(firstRest.baseAddress! + paired * 64, firstWhole - paired) }
        if secondWhole > paired { second.compress(secondRest.baseAddress! + paired * 64, secondWhole - paired) }
        first.keep(UnsafeRawBufferPointer(rebasing: firstRest[(firstWhole * 64)...]))
        second.keep(UnsafeRawBufferPointer(rebasing: secondRest[(secondWhole * 64)...]))
    }

    /// The 32-byte digest: the message padded with 0x80, zeros and its length in bits (big-endian).
    func finalize() -> [UInt8] {
        var last = self
        var tail = [UInt8](repeating: 0, count: pendingCount < 56 ? 64 - pendingCount : 128 - pendingCount)
        tail[0] = 0x80
        let bits = length &* 8
        for index in 0..<8 { tail[tail.count - 1 - index] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index))) }
        tail.withUnsafeBytes { last.update($0) }
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for index in 0..<8 { withUnsafeBytes(of: last.state[index].bigEndian) { digest += $0 } }
        return digest
    }

    /// Fills the unfinished block from the front of `bytes` (compressing it once full); returns the rest.
    private mutating func topUp(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard pendingCount > 0, !bytes.isEmpty else { return bytes }
        let taken = min(64 - pendingCount, bytes.count)
        let at = pendingCount
        withUnsafeMutableBytes(of: &pending) {
            $0.baseAddress!.advanced(by: at).copyMemory(from: bytes.baseAddress!, byteCount: taken)
        }
        pendingCount += taken
        if pendingCount == 64 {
            var block = pending
            withUnsafeBytes(of: &block) { compress($0.baseAddress!, 1) }
            pendingCount = 0
        }
        return UnsafeRawBufferPointer(rebasing: bytes[taken...])
    }

    /// Keeps fewer than 64 bytes as the unfinished block (which is empty here).
    private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        withUnsafeMutableBytes(of: &pending) {
            $0.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
        pendingCount = bytes.count
    }

    private mutating func compress(_ data: UnsafeRawPointer, _ count: Int) {
        withUnsafeMutableBytes(of: &state) {
            odrpack_sha256_blocks(
                $0.baseAddress!.assumingMemoryBound(to: UInt32.self), data.assumingMemoryBound(to: UInt8.self), count)
        }
    }
}

extension Sequence where Element == UInt8 {
    /// Lowercase hexadecimal.
    package var hexString: String { Array(self).withUnsafeBytes(LowercaseHex.string) }
}
