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
    /// The outermost folder this lock created (the folder itself, or a parent it had to make first), which a build
    /// that then writes nothing removes again; nil when the folder was there.
    let createdFolder: FilePath?
    package let folder: FilePath

    /// - Parameters:
    ///   - wait: wait for another holder (calling `onWait` first); false fails at once.
    package init(folder: FilePath, fileName: String, wait: Bool, onWait: () -> Void) throws {
        self.folder = folder
        self.fileName = fileName
        createdFolder = SystemCall.status(folder) == nil ? try OutputFolder.makeFolders(folder) : nil
        let path = folder.joined(fileName)
        // Never through a link (a restored CI cache can hold one to any file): O_NOFOLLOW, and a link is refused.
        let opened = path.withPlatformString { open($0, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644) }
        guard opened >= 0 else {
            let failure = errno
            if let createdFolder { try? OutputFolder.remove(createdFolder) }
            throw Self.openFailure(path, failure)
        }
        descriptor = opened
        do {
            try Self.requireRegular(descriptor, path)
            try Self.acquire(descriptor, LOCK_EX, path: path, wait: wait, onWait: onWait)
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// The error for a lock file that cannot be opened: a symbolic link (ELOOP under O_NOFOLLOW) is named as one.
    private static func openFailure(_ path: FilePath, _ failure: Int32) -> ODRPackError {
        if failure == ELOOP || SystemCall.status(path, followingLinks: false)?.kind == .symbolicLink {
            return .output(.lockFileIsLink(path))
        }
        return .system(.openLockFile, path, failure)
    }

    /// A lock file must be a regular file (a FIFO or a device there is refused, not waited on).
    private static func requireRegular(_ descriptor: Int32, _ path: FilePath) throws {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw ODRPackError.system(.readLockFile, path)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ODRPackError.output(.lockFileNotRegular(path))
        }
    }

    /// Takes the `flock` (`operation`: LOCK_EX or LOCK_SH) at once if it is free, else waits for it (after `onWait`)
    /// or, without `wait`, fails. The caller owns the descriptor, also when this throws.
    private static func acquire(_ descriptor: Int32, _ operation: Int32, path: FilePath, wait: Bool, onWait: () -> Void)
        throws
    {
        if flock(descriptor, operation | LOCK_NB) == 0 { return }
        var code = errno
        if code == EWOULDBLOCK {
            guard wait else { throw ODRPackError.folderLocked(.held(path)) }
            onWait()
            repeat {
                if flock(descriptor, operation) == 0 { return }
                code = errno
            } while code == EINTR
        }
        throw ODRPackError.system(.lock, path, code)
    }

    private init(descriptor: Int32, folder: FilePath, fileName: String) {
        self.descriptor = descriptor
        self.folder = folder
        self.fileName = fileName
        createdFolder = nil
    }

    /// A shared lock on an existing folder's existing lock file, for a reader (`thin`, docs/commands.md#thin): readers
    /// run together, never during a build. A reader never creates a file there: nil when the folder has no lock file
    /// (no build ever ran there, so none runs now) or cannot be opened (read-only: no writer to wait for).
    package static func shared(folder: FilePath, fileName: String, onWait: () -> Void) throws -> OutputLock? {
        let path = folder.joined(fileName)
        let descriptor = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        if descriptor < 0 {
            let failure = errno
            if [EROFS, EACCES, EPERM, ENOENT].contains(failure) { return nil }
            throw openFailure(path, failure)
        }
        do {
            try requireRegular(descriptor, path)
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
        if createdFolder == nil && isMarked { return }
        _ = SystemCall.removeFile(folder.joined(fileName))
        if let createdFolder { try? OutputFolder.remove(createdFolder) }
    }
}

/// A work folder in use for as long as its maker holds an `flock` on the folder itself (docs/store.md#ipa): another
/// process, in any PID namespace sharing the file system, tells a live one from an abandoned one by trying the lock,
/// never by a process id it may not see.
package final class HeldFolder {
    package let path: FilePath
    private let descriptor: Int32

    /// Makes the folder `path` (which must not exist: one there belongs to another live process, or is abandoned and
    /// removed first by `removeIfAbandoned`) and locks it.
    package init(making path: FilePath) throws {
        guard path.withPlatformString({ mkdir($0, 0o700) }) == 0 else {
            let failure = errno
            if failure == EEXIST {
                throw ODRPackError.folderLocked(.workingFolderTaken(path))
            }
            throw ODRPackError.system(.createFolder, path, failure)
        }
        let opened = Self.openFolder(path)
        guard opened >= 0 else { throw ODRPackError.system(.openFolder, path) }
        // Between mkdir and this lock, another process may have found the folder free and removed it (holding the
        // lock while it did): the folder then is not the one at `path` any more.
        var held = stat()
        var there = stat()
        guard flock(opened, LOCK_EX | LOCK_NB) == 0, fstat(opened, &held) == 0,
            path.withPlatformString({ lstat($0, &there) }) == 0, held.st_ino == there.st_ino,
            held.st_dev == there.st_dev
        else {
            close(opened)
            throw ODRPackError.folderLocked(.workingFolderRemoved(path))
        }
        self.path = path
        descriptor = opened
    }

    deinit { close(descriptor) }

    private static func openFolder(_ path: FilePath) -> Int32 {
        path.withPlatformString { open($0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
    }

    /// Removes the folder at `path` when no process holds its lock (its maker ended, however), holding the lock while
    /// it removes it; a held one is left alone. True when it was removed.
    @discardableResult
    package static func removeIfAbandoned(_ path: FilePath) throws -> Bool {
        let descriptor = openFolder(path)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        try OutputFolder.remove(path)
        return true
    }
}
