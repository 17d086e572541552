import CSHA256
import Crypto
import Testing

@testable import ODRPackPlatform

/// odrpack's own SHA-256 (the SHA extensions, or portable C) gives swift-crypto's digests for every length, however
/// the bytes are split, and the two-at-once update gives each hasher exactly what two separate updates give.
@Suite struct SHA256HasherTests {
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] { [UInt8](randomBytes(count, seed: seed)) }

    static func reference(_ bytes: [UInt8]) -> String { SHA256.hash(data: bytes).hexString }

    @Test func knownDigests() {
        // FIPS 180-4's examples: "abc" and the two-block message; the empty message.
        var abc = SHA256Hasher(ownBlocks: true)
        abc.update("abc")
        #expect(abc.finalize() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        var twoBlocks = SHA256Hasher(ownBlocks: true)
        twoBlocks.update("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        #expect(twoBlocks.finalize() == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256Hasher(ownBlocks: true).finalize()
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// Every length up to three blocks crosses each padding case (55, 56, 63, 64 bytes in the last block).
    @Test(arguments: [true, false]) func everyLengthMatchesSwiftCrypto(ownBlocks: Bool) {
        let data = Self.bytes(200, seed: 7)
        for length in 0...data.count {
            var hasher = SHA256Hasher(ownBlocks: ownBlocks)
            data[..<length].withUnsafeBytes { hasher.update($0) }
            #expect(hasher.finalize() == Self.reference(Array(data[..<length])), "length \(length)")
        }
    }

    @Test func splitsAnywhereMatchSwiftCrypto() {
        let data = Self.bytes(5000, seed: 11)
        var state: UInt64 = 3
        for _ in 0..<200 {
            var hasher = SHA256Hasher(ownBlocks: true)
            var at = 0
            while at < data.count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let count = min(data.count - at, Int(state >> 33) % 300)
                data[at..<(at + count)].withUnsafeBytes { hasher.update($0) }
                at += count
            }
            #expect(hasher.finalize() == Self.reference(data))
        }
    }

    /// Two hashers that already hold different amounts take the same pieces together: each ends with the digest of
    /// its own whole message, whether the pieces are paired, unpaired or shorter than a block.
    @Test(arguments: [0, 1, 63, 64, 65, 100]) func pairedUpdatesMatchSeparateOnes(secondHead: Int) {
        let head = Self.bytes(37, seed: 5)
        let otherHead = Self.bytes(secondHead, seed: 9)
        let shared = Self.bytes(69_000, seed: 13)
        var first = SHA256Hasher()
        var second = SHA256Hasher()
        head.withUnsafeBytes { first.update($0) }
        otherHead.withUnsafeBytes { second.update($0) }
        var at = 0
        for count in [0, 1, 27, 64, 128, 3000, 1, 65_536, 243] where at + count <= shared.count {
            shared[at..<(at + count)].withUnsafeBytes { SHA256Hasher.update(&first, &second, with: $0) }
            at += count
        }
        #expect(at == shared.count)
        #expect(first.finalize() == Self.reference(head + shared))
        #expect(second.finalize() == Self.reference(otherHead + shared))
    }

    /// The SHA-extension blocks (where the CPU has them) and the portable C give the same state.
    @Test func acceleratedAndPortableBlocksAgree() {
        let data = Self.bytes(64 * 9, seed: 17)
        let other = Self.bytes(64 * 9, seed: 19)
        let start: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        var fast = start
        var portable = start
        var pairedFirst = start
        var pairedSecond = start
        var otherPortable = start
        odrpack_sha256_blocks(&fast, data, 9)
        odrpack_sha256_blocks_portable(&portable, data, 9)
        odrpack_sha256_blocks2(&pairedFirst, data, &pairedSecond, other, 9)
        odrpack_sha256_blocks_portable(&otherPortable, other, 9)
        #expect(fast == portable)
        #expect(pairedFirst == portable)
        #expect(pairedSecond == otherPortable)
        #expect(portable != start)
    }
}
