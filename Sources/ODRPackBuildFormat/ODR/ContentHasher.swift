import ODRPackFormats
import ODRPackPlatform

/// A pack's contentHash, record by record: SHA-256 of one `path NUL size NUL sha256 LF` record per file, in the pack's
/// file order (docs/build-output.md). The records are written as bytes into one buffer that is hashed 64 KiB at a
/// time, so a pack of 50,000 files costs neither a String per file nor 50,000 hasher calls.
package struct ContentHasher {
    private var hasher = SHA256Hasher()
    private var pending: [UInt8] = []
    private static let flushSize = 1 << 16

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
    package mutating func add(path: UnsafeBufferPointer<UInt8>, size: Int64, digest: UnsafeRawBufferPointer) {
        pending.append(contentsOf: path)
        appendSize(size)
        LowercaseHex.append(digest, to: &pending)
        pending.append(UInt8(ascii: "\n"))
        flushIfFull()
    }

    /// The contentHash of the records added, as lowercase hex.
    package consuming func finalize() -> String {
        pending.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// `NUL size NUL`, the size in decimal as `"\(size)"` (and JSON) writes it.
    private mutating func appendSize(_ size: Int64) {
        pending.append(0)
        JSONValue.writeInteger(size, to: &pending)
        pending.append(0)
    }

    private mutating func flushIfFull() {
        guard pending.count >= Self.flushSize else { return }
        pending.withUnsafeBytes { hasher.update($0) }
        pending.removeAll(keepingCapacity: true)
    }
}
