import Foundation
import ODRPackBuildFormat
import ODRPackPlatform

/// Whether a file of the build folder holds exactly the bytes the build manifest makes of it: the one comparison of
/// every document verify regenerates (Apple's plists, the Background Assets documents). The file is streamed against
/// the expected bytes, never read whole: a huge file is a mismatch, not a huge allocation (docs/build-output.md#bounded).
enum DocumentComparison {
    /// Nil when the file at `path` (shown as `name`) holds exactly `expected`, else what is wrong with it.
    static func problem(_ path: FilePath, name: String, expected: some ContiguousBytes) -> String? {
        guard let status = SystemCall.status(path, followingLinks: false) else { return "'\(name)' is missing" }
        guard status.kind == .regular else { return "'\(name)' is not a regular file" }
        let differs =
            "'\(name)' differs from what \(BuildManifest.fileName) makes of it (edited, or from another build): build again"
        return expected.withUnsafeBytes { expected -> String? in
            guard status.stamp.size == Int64(expected.count) else { return differs }
            switch SystemCall.openForReading(path) {
            case .failure(let error): return "'\(name)' cannot be read: \(error.reason)"
            case .success(let descriptor):
                defer { _ = SystemCall.closeFile(descriptor) }
                let chunk = 1 << 20
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
                defer { buffer.deallocate() }
                var offset = 0
                while offset < expected.count {
                    let count = min(chunk, expected.count - offset)
                    let got = SystemCall.readFully(
                        descriptor, into: buffer.baseAddress!, count: count, at: Int64(offset))
                    guard got == count else { return got < 0 ? "'\(name)' cannot be read" : differs }
                    guard memcmp(buffer.baseAddress!, expected.baseAddress! + offset, count) == 0 else {
                        return differs
                    }
                    offset += count
                }
                return nil
            }
        }
    }

    /// Nil when the file at `path` (shown as `name`) holds exactly what `document` writes, else what is wrong with it:
    /// the document is streamed against the file a chunk at a time, so neither is ever held whole (a regenerated
    /// OnDemandResources.plist of a million paths costs a chunk, not its 50 MB).
    static func problem(_ path: FilePath, name: String, document: StreamedDocument) -> String? {
        guard let status = SystemCall.status(path, followingLinks: false) else { return "'\(name)' is missing" }
        guard status.kind == .regular else { return "'\(name)' is not a regular file" }
        switch document.compare(withFileAt: path) {
        case .same: return nil
        case .missing: return "'\(name)' is missing"
        case .unreadable(let code): return "'\(name)' cannot be read: \(SystemError(code).reason)"
        case .differs:
            return
                "'\(name)' differs from what \(BuildManifest.fileName) makes of it (edited, or from another build): build again"
        }
    }

    /// The whole file, when it is a regular file of at most `limit` bytes: for the one document verify must parse
    /// (the asset-pack manifest, whose URLs hold the path the build wrote). Nil otherwise.
    static func contents(_ path: FilePath, limit: Int64) -> Data? {
        guard let status = SystemCall.status(path, followingLinks: false), status.kind == .regular,
            status.stamp.size <= limit,
            case .success(let bytes) = LocalFileSystem().contents(of: path, limit: Int(limit))
        else { return nil }
        return Data(bytes)
    }
}
