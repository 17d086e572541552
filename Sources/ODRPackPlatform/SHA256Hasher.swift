import Crypto

/// Incremental SHA-256 giving lowercase hex.
package struct SHA256Hasher {
    private var hasher = SHA256()

    package init() {}

    package mutating func update(_ bytes: UnsafeRawBufferPointer) { hasher.update(bufferPointer: bytes) }
    package mutating func update(_ text: String) { hasher.update(data: Array(text.utf8)) }
    package func finalize() -> String { hasher.finalize().hexString }
}

extension Sequence where Element == UInt8 {
    /// Lowercase hexadecimal.
    package var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for byte in self {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
