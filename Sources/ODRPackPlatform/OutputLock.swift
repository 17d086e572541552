import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An `flock` on a file in a folder, exclusive or shared, released when this is freed (or the process ends, however
/// it ends): the mechanism. Which file marks a build folder, and what holding it means, belong to the callers
/// (`BuildFolder`).
package final class OutputLock {
    /// The lock file's name in `folder`.
    package let fileName: String

    private let descriptor: Int32
    /// Whether this lock created the folder, which a build that then writes nothing removes again.
    let createdFolder: Bool
    package let folder: FilePath

    /// - Parameters:
    ///   - wait: wait for another holder (calling `onWait` first); false fails at once.
    package init(folder: FilePath, fileName: String, wait: Bool, onWait: () -> Void) throws {
        self.folder = folder
        self.fileName = fileName
        createdFolder = SystemCall.status(folder) == nil
        if createdFolder {
            try OutputFolder.makeFolder(folder)
        }
        let path = folder.joined(fileName)
        descriptor = path.withPlatformString { open($0, O_CREAT | O_RDWR | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw ODRPackError.system("cannot create the lock file '\(path.text)'") }
        try Self.acquire(descriptor, LOCK_EX, path: path, wait: wait, onWait: onWait)
    }

    /// Takes the `flock` (`operation`: LOCK_EX or LOCK_SH) at once if it is free, else waits for it (after `onWait`)
    /// or, without `wait`, fails. The caller owns the descriptor, also when this throws.
    private static func acquire(_ descriptor: Int32, _ operation: Int32, path: FilePath, wait: Bool, onWait: () -> Void)
        throws
    {
        if flock(descriptor, operation | LOCK_NB) == 0 { return }
        var code = errno
        if code == EWOULDBLOCK {
            guard wait else { throw ODRPackError.folderLocked("another process holds '\(path.text)'") }
            onWait()
            repeat {
                if flock(descriptor, operation) == 0 { return }
                code = errno
            } while code == EINTR
        }
        throw ODRPackError.system("cannot lock '\(path.text)'", code)
    }

    private init(descriptor: Int32, folder: FilePath, fileName: String) {
        self.descriptor = descriptor
        self.folder = folder
        self.fileName = fileName
        createdFolder = false
    }

    /// A shared lock on an existing folder's existing lock file, for a reader (`thin`, docs/commands.md#thin): readers
    /// run together, never during a build. A reader never creates a file there: nil when the folder has no lock file
    /// (no build ever ran there, so none runs now) or cannot be opened (read-only: no writer to wait for).
    package static func shared(folder: FilePath, fileName: String, onWait: () -> Void) throws -> OutputLock? {
        let path = folder.joined(fileName)
        let descriptor: Int32
        switch SystemCall.openForReading(path) {
        case .success(let opened): descriptor = opened
        case .failure(let error):
            if [EROFS, EACCES, EPERM, ENOENT].contains(error.code) { return nil }
            throw ODRPackError.systemCall("cannot open the lock file '\(path.text)'", error)
        }
        do {
            try acquire(descriptor, LOCK_SH, path: path, wait: true, onWait: onWait)
        } catch {
            close(descriptor)
            throw error
        }
        return OutputLock(descriptor: descriptor, folder: folder, fileName: fileName)
    }

    deinit { close(descriptor) }

    /// For a build that ends without writing its output: when this lock made the folder, the lock file and the
    /// folder go again (with whatever empty folders the build made in it); when the folder holds no build (no
    /// `markers`, e.g. odrpack-manifest.json), the lock file goes, so a user's folder is not left marked as a build
    /// folder. A build folder keeps its lock file, which a waiting build may hold open.
    package func removeIfNotABuildFolder(markers: [String]) {
        let isMarked = markers.contains {
            guard let status = SystemCall.status(folder.joined($0), followingLinks: false) else { return false }
            return status.kind != .directory
        }
        if !createdFolder && isMarked { return }
        _ = SystemCall.removeFile(folder.joined(fileName))
        if createdFolder { _ = try? FileManager.default.removeItem(at: folder.fileURL) }
    }
}
