import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real disk, through the C library.
package struct LocalFileSystem: ResourceFileSystem {
    package let jobs: Int

    package init(jobs: Int = SystemCall.processorCount) { self.jobs = jobs }

    /// The path with every symbolic link resolved, byte for byte (`realpath`).
    package func resolved(_ path: FilePath) -> Result<FilePath, SystemError> {
        guard let real = path.withPlatformString({ realpath($0, nil) }) else { return .failure(.last) }
        defer { free(real) }
        return .success(FilePath(platformString: real))
    }

    /// The current folder as the system names it (`getcwd`): fails for one that was removed (ENOENT) or whose path the
    /// system cannot give (ENAMETOOLONG).
    package func currentFolder() -> Result<FilePath, SystemError> {
        guard let text = getcwd(nil, 0) else { return .failure(.last) }
        defer { free(text) }
        return .success(FilePath(platformString: text))
    }

    /// Metadata of what `path` leads to (links followed), or of the entry itself.
    package func status(_ path: FilePath, followingLinks: Bool) -> Result<FileStatus, SystemError> {
        var info = stat()
        let result = path.withPlatformString { followingLinks ? stat($0, &info) : lstat($0, &info) }
        guard result == 0 else { return .failure(.last) }
        return .success(FileStatus(info))
    }

    // `ResourceFileSystem`'s text paths (a resolution's paths are manifest text): each checked for a NUL, then the
    // `FilePath` form.

    package func resolvedPath(_ path: String) -> Result<String, SystemError> {
        guard let checked = FilePath(checking: path) else { return .failure(SystemError(EINVAL)) }
        return resolved(checked).map(\.text)
    }

    /// `path` from the root: a relative one joined to the current folder as `getcwd` gives its bytes (never
    /// Foundation's text, which repairs a name that is not UTF-8), nothing folded or resolved (`link/..` is the folder
    /// above where the link leads). The one place a path is made absolute.
    package func absolute(_ path: FilePath) -> Result<FilePath, SystemError> {
        if path.isAbsolute { return .success(path) }
        return currentFolder().map { $0.pushing(path) }
    }

    /// `path` with every symbolic link resolved, bytes and all (a name that is not UTF-8 keeps its bytes), or the
    /// error that names it: what thin and ipa compare the places of an app, a build folder and an output by. The one
    /// `realPath`.
    /// - Throws: `ODRPackError.io(.resolve, ...)` (exit 2), "cannot resolve '<path>'" with the system's reason.
    package static func realPath(_ path: FilePath) throws -> FilePath {
        switch LocalFileSystem().resolved(path) {
        case .success(let real): return real
        case .failure(let error): throw ODRPackError.io(.resolve, path: path, error)
        }
    }

    /// `realPath` of a path held as text (a manifest's, a build manifest's), as text.
    package static func realPath(_ path: String) throws -> String {
        guard let checked = FilePath(checking: path) else {
            throw ODRPackError.io(.resolve, path: FilePath(path), SystemError(EINVAL))
        }
        return try realPath(checked).string
    }

    package func status(_ path: String, followingLinks: Bool) -> Result<FileStatus, SystemError> {
        guard let checked = FilePath(checking: path) else { return .failure(SystemError(EINVAL)) }
        return status(checked, followingLinks: followingLinks)
    }

    package func scan(_ path: String) -> FileTree {
        FileTreeScanner(jobs: jobs).scan(path)
    }

    package func scan(_ path: String, descending: @escaping @Sendable ([UInt8]) -> Bool) -> FileTree {
        FileTreeScanner(jobs: jobs).scan(path, descending: descending)
    }

    /// A whole file read to its end, which may be a pipe (`odrpack diff <(git show ...) new`): its size is only a hint.
    /// Never more than `limit` bytes (docs/build-output.md#bounded): a larger file, or one without end (`/dev/zero`),
    /// fails with EFBIG as soon as it passes the bound.
    package func contents(of path: FilePath, limit: Int) -> Result<[UInt8], SystemError> {
        let descriptor = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return .failure(.last) }
        defer { SystemCall.closeFile(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.last) }
        guard (info.st_mode & S_IFMT) != S_IFDIR else { return .failure(SystemError(EISDIR)) }
        guard Int64(info.st_size) <= Int64(limit) else { return .failure(SystemError(EFBIG)) }
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        var done = 0
        while true {
            if done > limit { return .failure(SystemError(EFBIG)) }
            if done == bytes.count { bytes += [UInt8](repeating: 0, count: min(max(bytes.count, 1 << 16), limit + 1)) }
            let read = bytes.withUnsafeMutableBytes {
                SystemCall.readBytes(descriptor, $0.baseAddress! + done, $0.count - done)
            }
            if read < 0 && errno == EINTR { continue }
            if read < 0 { return .failure(.last) }
            if read == 0 { break }
            done += read
        }
        bytes.removeSubrange(done...)
        return .success(bytes)
    }

    package func read(_ path: String, count: Int, at offset: Int64) -> Result<[UInt8], SystemError> {
        Self.read(open(path, O_RDONLY | O_CLOEXEC), count: count, at: offset)
    }

    /// Opens each file relative to its folder, so the kernel walks the folder's path once instead of once per file
    /// (a third of `validate`'s time on 200,000 files).
    package func readHeads(of names: [String], inFolder folder: String, count: Int) -> [Result<[UInt8], SystemError>] {
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        // Each file's own error (a missing folder, a permission) comes from opening it by its whole path.
        guard folderDescriptor >= 0 else { return names.map { read(folder.slashJoined($0), count: count, at: 0) } }
        defer { SystemCall.closeFile(folderDescriptor) }
        return names.map { Self.read(openat(folderDescriptor, $0, O_RDONLY | O_CLOEXEC), count: count, at: 0) }
    }

    /// Up to `count` bytes at `offset` of a file just opened (or the error that opening it gave), then closes it.
    private static func read(_ descriptor: Int32, count: Int, at offset: Int64) -> Result<[UInt8], SystemError> {
        guard descriptor >= 0 else { return .failure(.last) }
        defer { SystemCall.closeFile(descriptor) }
        guard count > 0 else { return .success([]) }
        var bytes = [UInt8](repeating: 0, count: count)
        let done = bytes.withUnsafeMutableBytes {
            SystemCall.readFully(descriptor, into: $0.baseAddress!, count: count, at: offset)
        }
        if done < 0 { return .failure(.last) }
        bytes.removeLast(count - done)
        return .success(bytes)
    }
}
