import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a file beside its final name and renames it into place: a reader sees the old file or the whole new one.
enum AtomicFile {
    enum Failure: Error {
        /// The temporary file could not be created or written (disk full, permissions).
        case create
        /// The rename failed, with its errno.
        case rename(Int32)
    }

    static func temporaryPath(for path: String) -> String { path + ".odrpack-tmp-\(getpid())" }

    /// - Parameter unlinkingFirst: remove the old file just before the rename, which is then not atomic but spares
    ///   a large file ext4's flush on replacing rename (see `PackBuilder.moveArchive`). The temporary never outlives a failure.
    static func write(_ data: Data, to path: String, unlinkingFirst: Bool = false) throws {
        let temporary = temporaryPath(for: path)
        guard FileManager.default.createFile(atPath: temporary, contents: data) else {
            unlink(temporary)
            throw Failure.create
        }
        if unlinkingFirst { unlink(path) }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure.rename(code)
        }
    }
}
