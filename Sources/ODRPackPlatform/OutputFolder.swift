import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations every format's commit makes in the build folder.
package enum OutputFolder {
    package static func makeFolder(_ path: String) throws {
        if mkdir(path, 0o755) == 0 { return }
        var code = errno
        if code == ENOENT, let parent = path.splitAtLastSlash()?.folder, !parent.isEmpty {
            // A missing parent: made first, then this folder (the one path of every folder odrpack makes).
            try makeFolder(String(parent))
            if mkdir(path, 0o755) == 0 { return }
            code = errno
        }
        var info = stat()
        if code == EEXIST, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        throw ODRPackError.systemCall("cannot create folder '\(path)'", SystemError(code == EEXIST ? ENOTDIR : code))
    }

    /// Makes a folder's entries (a rename, a removal) durable; skipped where the file system cannot flush a folder.
    package static func syncFolder(_ path: String) throws {
        try SystemCall.syncFolder(path)
    }

    /// Moves a written pack into place. What was there is removed first: a folder cannot be renamed over a full one,
    /// and renaming over a file makes ext4 flush the new one on the spot (auto_da_alloc), tens of milliseconds for
    /// a large archive. Packs move while no manifest vouches for the folder, so their brief absence is safe.
    package static func moveIntoPlace(_ from: String, to: String) throws {
        try remove(to)
        guard rename(from, to) == 0 else { throw ODRPackError.system("cannot move '\(from)' to '\(to)'") }
    }

    /// Renames what is at `path` to a temporary name beside it and returns that name (nil when nothing is there), so
    /// that a new file can take its place at once and the old one be removed later, when nothing waits on it: freeing
    /// a large archive's blocks takes milliseconds. A build killed before the removal leaves a temporary, which the
    /// next build removes.
    package static func moveAside(_ path: String) throws -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let aside = TemporaryName.path(beside: path) + "-replaced"
        try remove(aside)
        guard rename(path, aside) == 0 else { throw ODRPackError.system("cannot move '\(path)' to '\(aside)'") }
        return aside
    }

    /// Removes a file or a whole folder; a missing one is fine.
    package static func remove(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw ODRPackError.fileOperation("cannot remove '\(path)': \(error.localizedDescription)")
            }
        } else if unlink(path) != 0 && errno != ENOENT {
            throw ODRPackError.system("cannot remove '\(path)'")
        }
    }

    /// Removes the temporaries of interrupted builds in `folder` (every build's, or with `prefix` this process's),
    /// except those starting with one of `kept` (this process's, which it has yet to place), and never the previous
    /// manifest of an interrupted commit (`TemporaryName.previousManifest`), which the next build reads and removes
    /// itself (docs/build-output.md#atomic).
    package static func removeTemporaries(
        in folder: String, prefix: String = TemporaryName.marker, except kept: [String] = []
    ) throws {
        for name in try names(in: folder)
        where name.hasPrefix(prefix) && name != TemporaryName.previousManifest
            && !kept.contains(where: { name.hasPrefix($0) })
        {
            try remove(folder + "/" + name)
        }
    }
}

extension OutputFolder {
    /// The names in a folder; none when it does not exist. Any other failure to list it is an error: a stale pack
    /// that cannot be seen cannot be removed.
    package static func names(in folder: String) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            var info = stat()
            if lstat(folder, &info) != 0 && errno == ENOENT { return [] }
            throw ODRPackError.fileOperation("cannot list '\(folder)': \(error.localizedDescription)")
        }
    }
}
