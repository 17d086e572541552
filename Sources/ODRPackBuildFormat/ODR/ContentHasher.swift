import ODRPackPlatform

/// A pack's contentHash, record by record: SHA-256 of one `path NUL size NUL sha256 LF` record per file, in the pack's
/// file order (docs/build-output.md). The records are written as bytes into one buffer that is hashed 64 KiB at a
/// time, so a pack of 50,000 files costs neither a String per file nor 50,000 hasher calls.
package struct ContentHasher {
    private var hasher = SHA256Hasher()
    private var pending: [UInt8] = []
    private static let flushSize = 1 << 16
    private static let hexDigits = Array("0123456789abcdef".utf8)

    package init() { pending.reserveCapacity(Self.flushSize + 4096) }

    /// Adds the record of one file whose SHA-256 is 64 lowercase hex digits.
    package mutating func add(path: String, size: Int64, sha256: String) {
        var path = path
        path.withUTF8 { pending.append(contentsOf: $0) }
        appendSize(size)
        pending.append(contentsOf: sha256.utf8)
        pending.append(UInt8(ascii: "\n"))
        flushIfFull()
    }

    /// Adds the record of one file given as its path's UTF-8 bytes and its SHA-256's 32 raw bytes.
    package mutating func add(path: UnsafeBufferPointer<UInt8>, size: Int64, digest: UnsafeBufferPointer<UInt8>) {
        pending.append(contentsOf: path)
        appendSize(size)
        for byte in digest {
            pending.append(Self.hexDigits[Int(byte >> 4)])
            pending.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        pending.append(UInt8(ascii: "\n"))
        flushIfFull()
    }

    /// The contentHash of the records added, as lowercase hex.
    package consuming func finalize() -> String {
        pending.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// `NUL size NUL`, the size in decimal as `"\(size)"` writes it.
    private mutating func appendSize(_ size: Int64) {
        pending.append(0)
        if size < 0 { pending.append(UInt8(ascii: "-")) }
        let start = pending.count
        var rest = size.magnitude
        repeat {
            pending.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        pending[start...].reverse()
        pending.append(0)
    }

    private mutating func flushIfFull() {
        guard pending.count >= Self.flushSize else { return }
        pending.withUnsafeBytes { hasher.update($0) }
        pending.removeAll(keepingCapacity: true)
    }
}
