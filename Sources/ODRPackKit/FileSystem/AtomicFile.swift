import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file beside its final name and renames it into place: a reader sees the old file or the whole new one.
enum AtomicFile {
    enum Failure: Error {
        /// The temporary file could not be created or written (disk full, permissions), with its errno.
        case create(Int32)
        /// The rename failed, with its errno.
        case rename(Int32)
    }

    static func temporaryPath(for path: String) -> String { TemporaryName.path(beside: path) }

    /// - Parameter unlinkingFirst: remove the old file just before the rename, which is then not atomic but spares
    ///   a large file ext4's flush on replacing rename (see `PackBuilder.moveArchive`). The temporary never outlives a failure.
    static func write(_ data: Data, to path: String, unlinkingFirst: Bool = false) throws {
        let temporary = temporaryPath(for: path)
        let descriptor = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure.create(errno) }
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let written = SystemCall.writeBytes(descriptor, raw.baseAddress! + done, raw.count - done)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                done += written
            }
        }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw Failure.create(failure)
        }
        if unlinkingFirst { unlink(path) }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure.rename(code)
        }
    }
}
