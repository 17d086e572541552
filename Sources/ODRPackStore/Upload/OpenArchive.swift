import ODRPackBuildFormat
import ODRPackPlatform

/// A pack's archive, open for the whole run (docs/store.md#trust-boundaries): its SHA-256 is hashed from this open
/// file and every part is read from it, so what the upload record vouches for is what App Store Connect got, whatever
/// happens to the path meanwhile.
final class OpenArchive: Sendable {
    let descriptor: Int32
    let size: Int64
    let sha256: String
    /// The first `AppleArchiveSignature.length` bytes (fewer in a shorter file).
    let prefix: [UInt8]

    /// Opens `path` and hashes it to its end.
    /// - Throws: `ODRPackError` (exit 2) when it cannot be opened or read.
    init(path: FilePath) throws {
        switch SystemCall.openForReading(path) {
        case .success(let opened): descriptor = opened
        case .failure(let error): throw ODRPackError.io(.read, path: path, error)
        }
        do {
            let buffer = ReadBuffer(size: 1 << 20)
            var hasher = SHA256Hasher()
            var offset: Int64 = 0
            var head: [UInt8] = []
            while true {
                let got = SystemCall.readFully(descriptor, into: buffer.bytes.baseAddress!, count: 1 << 20, at: offset)
                guard got >= 0 else { throw ODRPackError.io(.read, path: path, .last) }
                if got == 0 { break }
                let chunk = UnsafeRawBufferPointer(rebasing: buffer.bytes[0..<got])
                if head.count < AppleArchiveSignature.length {
                    head += chunk.prefix(AppleArchiveSignature.length - head.count)
                }
                hasher.update(chunk)
                offset += Int64(got)
            }
            size = offset
            sha256 = hasher.finalize()
            prefix = head
        } catch {
            SystemCall.closeFile(descriptor)
            throw error
        }
    }

    deinit { SystemCall.closeFile(descriptor) }
}
