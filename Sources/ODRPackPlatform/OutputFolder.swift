import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations every format's commit makes in the build folder.
package enum OutputFolder {
    /// `makeFolder`, returning the outermost folder it made (nil when `path` was there already): what a command that
    /// ends up writing nothing removes again, so it leaves no folder it made (docs/build-output.md#ownership).
    @discardableResult
    package static func makeFolders(_ path: FilePath) throws -> FilePath? {
        var outermost = path
        while case let parent = outermost.removingLastComponent(), !parent.isEmpty, parent != outermost,
            SystemCall.status(parent, followingLinks: true) == nil
        {
            outermost = parent
        }
        let existed = SystemCall.status(path, followingLinks: true) != nil
        try makeFolder(path)
        return existed ? nil : outermost
    }

    /// Creates a folder (0755 before the umask) and any missing parents; one that exists already is fine.
    package static func makeFolder(_ path: FilePath) throws {
        if path.withPlatformString({ mkdir($0, 0o755) }) == 0 { return }
        var code = errno
        let parent = path.removingLastComponent()
        if code == ENOENT, !parent.isEmpty, parent != path {
            // A missing parent: made first, then this folder (the path of every folder odrpack makes but the lock's,
            // `HeldFolder`, and the build state's cache folder: docs/architecture.md).
            try makeFolder(parent)
            if path.withPlatformString({ mkdir($0, 0o755) }) == 0 { return }
            code = errno
        }
        if code == EEXIST, SystemCall.status(path)?.kind == .directory { return }
        throw ODRPackError.system(.createFolder, path, code == EEXIST ? ENOTDIR : code)
    }

    /// Makes a folder's entries (a rename, a removal) durable; skipped where the file system cannot flush a folder.
    package static func syncFolder(_ path: FilePath) throws {
        try SystemCall.syncFolder(path)
    }

    /// Moves a written pack into place. What was there is removed first: a folder cannot be renamed over a full one,
    /// and renaming over a file makes ext4 flush the new one on the spot (auto_da_alloc), tens of milliseconds for
    /// a large archive. Packs move while no manifest vouches for the folder, so their brief absence is safe.
    package static func moveIntoPlace(_ from: FilePath, to: FilePath) throws {
        try remove(to)
        if let error = SystemCall.rename(from, to: to) {
            throw ODRPackError.io(.move(to: to), path: from, error)
        }
    }

    /// Renames what is at `path` to a temporary name beside it and returns that name (nil when nothing is there), so
    /// that a new file can take its place at once and the old one be removed later, when nothing waits on it: freeing
    /// a large archive's blocks takes milliseconds. A build killed before the removal leaves a temporary, which the
    /// next build removes.
    package static func moveAside(_ path: FilePath) throws -> FilePath? {
        guard SystemCall.status(path, followingLinks: false) != nil else { return nil }
        let aside = TemporaryName.path(beside: path, suffix: "-replaced")
        try remove(aside)
        if let error = SystemCall.rename(path, to: aside) {
            throw ODRPackError.io(.move(to: aside), path: path, error)
        }
        return aside
    }

    /// Removes a file or a whole folder; a missing one is fine.
    package static func remove(_ path: FilePath) throws {
        guard let status = SystemCall.status(path, followingLinks: false) else { return }
        if status.kind == .directory {
            try removeFolder(path)
        } else if let error = SystemCall.removeFile(path), error.code != ENOENT {
            throw ODRPackError.io(.remove, path: path, error)
        }
    }

    /// Removes a folder and all it holds, reaching each entry by its name's bytes: Foundation's removal takes the
    /// path as a URL, which corelibs Foundation repairs when it is not UTF-8 (docs/architecture.md#paths). Links are
    /// removed, never followed.
    private static func removeFolder(_ folder: FilePath) throws {
        for name in try FolderNames.list(folder) {
            let path = name.path(in: folder)
            if SystemCall.status(path, followingLinks: false)?.kind == .directory {
                try removeFolder(path)
            } else if let error = SystemCall.removeFile(path), error.code != ENOENT {
                throw ODRPackError.io(.remove, path: path, error)
            }
        }
        let result = folder.withPlatformString { rmdir($0) }
        if result != 0, errno != ENOENT {
            throw ODRPackError.io(.remove, path: folder, .last)
        }
    }

    /// Removes the temporaries of interrupted builds in `folder` (every build's, or with `prefix` this process's),
    /// except those starting with one of `kept` (this process's, which it has yet to place), and never the previous
    /// manifest of an interrupted commit (`TemporaryName.previousManifest`), which the next build reads and removes
    /// itself (docs/build-output.md#atomic).
    package static func removeTemporaries(
        in folder: FilePath, prefix: String = TemporaryName.marker, except kept: [String] = []
    ) throws {
        for name in try names(in: folder)
        where name.hasPrefix(prefix) && name != TemporaryName.previousManifest
            && !kept.contains(where: { name.hasPrefix($0) })
        {
            try remove(folder.joined(name))
        }
    }
}

extension OutputFolder {
    /// The names in a folder; none when it does not exist. Any other failure to list it is an error: a stale pack
    /// that cannot be seen cannot be removed.
    /// The folder is listed by its bytes (`FolderNames`), so one whose path is not UTF-8 is listed; a name in it that
    /// is not UTF-8 is given as `\xNN` text (`FilePath.shownText`), which names no file: a caller that must reach
    /// such a name lists with `FolderNames`.
    package static func names(in folder: FilePath) throws -> [String] {
        do {
            return try FolderNames.list(folder).map { $0.text ?? FilePath.shownText(of: $0.bytes) }
        } catch {
            if case .failure(let error) = LocalFileSystem().status(folder, followingLinks: false), error.code == ENOENT
            {
                return []
            }
            throw error
        }
    }
}
