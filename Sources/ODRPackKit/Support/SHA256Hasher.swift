import Crypto

/// Incremental SHA-256 giving lowercase hex.
struct SHA256Hasher {
    private var hasher = SHA256()

    mutating func update(_ bytes: UnsafeRawBufferPointer) { hasher.update(bufferPointer: bytes) }
    mutating func update(_ text: String) { hasher.update(data: Array(text.utf8)) }
    func finalize() -> String { hasher.finalize().hexString }
}
