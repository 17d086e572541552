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
    package let folder: String

    /// - Parameters:
    ///   - wait: wait for another holder (calling `onWait` first); false fails at once.
    package init(folder: String, fileName: String, wait: Bool, onWait: () -> Void) throws {
        self.folder = folder
        self.fileName = fileName
        var info = stat()
        createdFolder = stat(folder, &info) != 0
        if createdFolder {
            try OutputFolder.makeFolder(folder)
        }
        descriptor = open(folder + "/" + fileName, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ODRPackError.system("cannot create the lock file '\(folder)/\(fileName)'") }
        try Self.acquire(descriptor, LOCK_EX, path: folder + "/" + fileName, wait: wait, onWait: onWait)
    }

    /// Takes the `flock` (`operation`: LOCK_EX or LOCK_SH) at once if it is free, else waits for it (after `onWait`)
    /// or, without `wait`, fails. The caller owns the descriptor, also when this throws.
    private static func acquire(_ descriptor: Int32, _ operation: Int32, path: String, wait: Bool, onWait: () -> Void)
        throws
    {
        if flock(descriptor, operation | LOCK_NB) == 0 { return }
        var code = errno
        if code == EWOULDBLOCK {
            guard wait else { throw ODRPackError.folderLocked("another process holds '\(path)'") }
            onWait()
            repeat {
                if flock(descriptor, operation) == 0 { return }
                code = errno
            } while code == EINTR
        }
        throw ODRPackError.system("cannot lock '\(path)'", code)
    }

    private init(descriptor: Int32, folder: String, fileName: String) {
        self.descriptor = descriptor
        self.folder = folder
        self.fileName = fileName
        createdFolder = false
    }

    /// A shared lock on an existing folder's existing lock file, for a reader (`thin`, docs/commands.md#thin): readers
    /// run together, never during a build. A reader never creates a file there: nil when the folder has no lock file
    /// (no build ever ran there, so none runs now) or cannot be opened (read-only: no writer to wait for).
    package static func shared(folder: String, fileName: String, onWait: () -> Void) throws -> OutputLock? {
        let path = folder + "/" + fileName
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == EROFS || code == EACCES || code == EPERM || code == ENOENT { return nil }
            throw ODRPackError.system("cannot open the lock file '\(path)'", code)
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
        var info = stat()
        let isMarked = markers.contains {
            lstat(folder + "/" + $0, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR
        }
        if !createdFolder && isMarked { return }
        unlink(folder + "/" + fileName)
        if createdFolder { _ = try? FileManager.default.removeItem(atPath: folder) }
    }
}
