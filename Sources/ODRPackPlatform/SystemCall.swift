import CPlatform
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `fdopendir` returns: an opaque `DIR *` in Glibc's overlay, a typed one in Darwin's.
#if canImport(Darwin)
    typealias DirectoryHandle = UnsafeMutablePointer<DIR>
#else
    typealias DirectoryHandle = OpaquePointer
#endif

/// The few C calls that differ between Linux (Glibc) and macOS (Darwin), or that a type's own `write`/`close`
/// methods would shadow: every platform branch of the package is here.
package enum SystemCall {
    /// Gives the heap's freed pages back to the system (glibc's `malloc_trim`; nothing elsewhere). Memory a worker
    /// thread allocated and another freed stays in that thread's arena, where no other thread reuses it: the
    /// resolution calls this while it frees the scanned tree, a build after each pack it wrote
    /// (docs/build-output.md#bounded).
    package static func releaseFreedMemory() {
        odrpack_release_free_memory()
    }

    static func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(descriptor, bytes, count)
        #else
            Darwin.write(descriptor, bytes, count)
        #endif
    }

    static func readBytes(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(descriptor, bytes, count)
        #else
            Darwin.read(descriptor, bytes, count)
        #endif
    }

    /// Writes all of `bytes` (at `offset`, else at the file's position), retrying interrupted and short writes.
    /// - Returns: 0, or the errno of the failure.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64? = nil) -> Int32
    {
        var done = 0
        while done < bytes.count {
            let written =
                offset.map {
                    pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t($0 + Int64(done)))
                }
                ?? writeBytes(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += written
        }
        return 0
    }

    /// Reads up to `count` bytes at `offset`, retrying interrupted reads; fewer only at the end of the file.
    /// - Returns: the bytes read, or -1 with errno set.
    package static func readFully(
        _ descriptor: Int32, into destination: UnsafeMutableRawPointer, count: Int, at offset: Int64
    ) -> Int {
        var done = 0
        while done < count {
            let got = pread(descriptor, destination + done, count - done, off_t(offset + Int64(done)))
            if got < 0 {
                if errno == EINTR { continue }
                return -1
            }
            if got == 0 { break }
            done += got
        }
        return done
    }

    @discardableResult
    package static func closeFile(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(descriptor)
        #else
            Darwin.close(descriptor)
        #endif
    }

    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// An entry's kind, metadata and mode; nil when it cannot be had (see `LocalFileSystem.status` for why).
    package static func status(_ path: FilePath, followingLinks: Bool = true) -> FileStatus? {
        try? LocalFileSystem().status(path, followingLinks: followingLinks).get()
    }

    /// An entry's status, or `ODRPackError.call` of `failure` (the entry as the message names it) and why.
    package static func requireStatus(
        _ path: FilePath, followingLinks: Bool = true, _ failure: @autoclosure () -> SystemFailure
    ) throws -> FileStatus {
        switch LocalFileSystem().status(path, followingLinks: followingLinks) {
        case .success(let status): return status
        case .failure(let error): throw ODRPackError.call(failure(), error)
        }
    }

    /// An entry's status, or `ODRPackError.io` of `operation` on `path` and why it failed.
    package static func requireStatus(_ path: FilePath, followingLinks: Bool = true, _ operation: FileOperation)
        throws -> FileStatus
    {
        switch LocalFileSystem().status(path, followingLinks: followingLinks) {
        case .success(let status): return status
        case .failure(let error): throw ODRPackError.io(operation, path: path, error)
        }
    }

    /// The metadata of an open file (fstat): of the file read, whatever its name now names; nil when it cannot be had.
    package static func stamp(ofOpen descriptor: Int32) -> FileStamp? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return FileStamp(info)
    }

    /// Whether `path` leads to something (a link, to what it points at).
    package static func exists(_ path: FilePath) -> Bool { path.withPlatformString { access($0, F_OK) } == 0 }

    /// Removes a folder if it is empty; what is not empty (or not there) stays as it is.
    package static func removeFolderIfEmpty(_ path: FilePath) { _ = path.withPlatformString { rmdir($0) } }

    package static var userID: UInt32 { UInt32(getuid()) }
    package static var processID: Int32 { getpid() }
    /// The cores this process may use, read once: corelibs Foundation re-reads the cgroup files on every
    /// `activeProcessorCount`, and a build asks often.
    package static let processorCount = ProcessInfo.processInfo.activeProcessorCount

    /// Whether text holds a NUL, which a C call would silently take for its end: two different names would reach one
    /// file (docs/manifest.md#rules). `FilePath(checking:)` refuses such text; this is for the calls that still take text.
    static func holdsNul(_ path: String) -> Bool { path.utf8.contains(0) }

    /// Creates (or empties) a file for reading and writing, mode 0644.
    package static func createFile(_ path: FilePath) throws -> Int32 {
        let descriptor = path.withPlatformString { open($0, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw ODRPackError.system(.create, path) }
        return descriptor
    }

    /// The bytes an unprivileged writer may still use on the file system of `path` (statvfs: free blocks for users
    /// times the fragment size); nil when the system cannot say.
    package static func availableBytes(_ path: FilePath) -> UInt64? {
        var info = statvfs()
        guard path.withPlatformString({ statvfs($0, &info) }) == 0 else { return nil }
        let (bytes, overflow) = UInt64(info.f_bavail).multipliedReportingOverflow(by: UInt64(info.f_frsize))
        return overflow ? UInt64.max : bytes
    }

    /// Opens a file to read; nil with the reason when it cannot be.
    package static func openForReading(_ path: FilePath) -> Result<Int32, SystemError> {
        let descriptor = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC) }
        return descriptor >= 0 ? .success(descriptor) : .failure(.last)
    }

    /// Ends the file at `size` and puts the write position there.
    package static func truncate(_ descriptor: Int32, to size: Int64) -> SystemError? {
        ftruncate(descriptor, off_t(size)) == 0 && lseek(descriptor, off_t(size), SEEK_SET) >= 0 ? nil : .last
    }

    /// Sets the permission bits of `path` (links followed); nil when done, else why not.
    package static func setPermissions(_ path: FilePath, _ permissions: FileMode) -> SystemError? {
        path.withPlatformString { chmod($0, mode_t(permissions)) } == 0 ? nil : .last
    }

    /// The target of the symbolic link `path`, as its bytes (a target that is not UTF-8 stays itself).
    /// - Throws: `ODRPackError.io` when `path` is no link or cannot be read.
    package static func linkTarget(_ path: FilePath) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = path.withPlatformString { link in
            buffer.withUnsafeMutableBytes {
                readlink(link, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count)
            }
        }
        guard count >= 0 else { throw ODRPackError.io(.readLink, path: path, .last) }
        return Array(buffer[..<count])
    }

    /// Makes a symbolic link at `path` to `target` (its bytes, as a link holds them); nil when done, else why not.
    package static func makeLink(_ path: FilePath, target: [UInt8]) -> SystemError? {
        guard !target.contains(0) else { return SystemError(EINVAL) }
        let result = (target + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                path.withPlatformString { symlink(text.baseAddress!, $0) }
            }
        }
        return result == 0 ? nil : .last
    }

    /// Renames `from` to `to`; nil when done, else why not.
    package static func rename(_ from: FilePath, to: FilePath) -> SystemError? {
        let result = from.withPlatformString { from in
            to.withPlatformString { to in
                #if canImport(Glibc)
                    Glibc.rename(from, to)
                #else
                    Darwin.rename(from, to)
                #endif
            }
        }
        return result == 0 ? nil : .last
    }

    /// Removes a file (not a folder); nil when done, else why not.
    /// A second name `to` for the file `from` (link(2)): nil when made, else the errno (EXDEV across file systems,
    /// EEXIST when `to` exists, EPERM where the file system has no hard links).
    package static func hardLink(_ from: FilePath, to: FilePath) -> SystemError? {
        let result = from.withPlatformString { from in to.withPlatformString { to in link(from, to) } }
        return result == 0 ? nil : SystemError.last
    }

    package static func removeFile(_ path: FilePath) -> SystemError? {
        path.withPlatformString { unlink($0) } == 0 ? nil : SystemError.last
    }

    /// Tells the kernel a file is read once front to back, so it reads ahead and does not keep the pages.
    static func adviseSequentialRead(_ descriptor: Int32) {
        #if os(Linux)
            _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
        #elseif canImport(Darwin)
            _ = fcntl(descriptor, F_RDAHEAD, 1)
        #endif
    }

    /// A path whose `stat` is the running executable's: a rebuilt odrpack invalidates the up-to-date record.
    package static var executable: FilePath {
        #if os(Linux)
            "/proc/self/exe"
        #else
            FilePath(Bundle.main.executablePath ?? CommandLine.arguments[0])
        #endif
    }

    /// Modification and status-change times from a stat, in nanoseconds since 1970.
    static func modificationAndChange(_ info: stat) -> (modified: Int64, changed: Int64) {
        #if os(Linux)
            let (modified, changed) = (info.st_mtim, info.st_ctim)
        #else
            let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #endif
        return (
            Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec),
            Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec)
        )
    }

    /// The device number as an unsigned value: `dev_t` is a UInt64 on Linux and an Int32 on Darwin.
    static func device(_ info: stat) -> UInt64 {
        UInt64(truncatingIfNeeded: info.st_dev)
    }

    // MARK: Durability (docs/build-output.md)

    /// Starts writing a file's dirty pages to the disk without waiting, so that a later barrier waits less.
    package static func startWriteback(_ descriptor: Int32) {
        #if os(Linux)
            _ = odrpack_start_writeback(descriptor)
        #endif
    }

    /// Waits until what was written under `folder` is on stable storage: the files and folders in `written` with
    /// everything in them, and the entries (renames, removals) of their folders and of `folder` (docs/build-output.md#durable).
    /// Only these: never `sync` or `syncfs`, which would also wait for what other programs wrote. Every file's
    /// write-back starts at once (Linux), then the files are flushed on several threads, whose fsyncs the file system
    /// joins into few journal commits; folders last. Darwin ends with F_FULLFSYNC, which empties the drive's cache.
    package static func makeDurable(folder: FilePath, written: [FilePath]) throws {
        var files: [FilePath] = []
        var folders: [FilePath] = []
        for path in written {
            if status(path, followingLinks: false)?.kind == .directory {
                folders.append(path)
                for entry in try FolderWalk.entries(under: path) {
                    if entry.status.kind == .directory {
                        folders.append(path.joined(entry.path))
                    } else {
                        files.append(path.joined(entry.path))
                    }
                }
            } else {
                files.append(path)
            }
        }
        // Every folder between a written path and `folder`: each holds an entry that may be new.
        var parents: Set<FilePath> = []
        for path in written {
            var parent = path.removingLastComponent()
            while parent != folder && parent.isInside(folder) && parents.insert(parent).inserted {
                parent = parent.removingLastComponent()
            }
        }
        #if os(Linux)
            for path in files {
                if case .success(let descriptor) = openForReading(path) {
                    startWriteback(descriptor)
                    closeFile(descriptor)
                }
            }
        #endif
        _ = try parallelMap(files, jobs: min(16, max(1, files.count))) { try flush($0, full: false) }
        for path in (folders + parents).sorted(by: { $0.length > $1.length }) + [folder] {
            try flushFolder(path)
        }
        #if canImport(Darwin)
            try flush(folder, full: true)
        #endif
    }

    /// Makes a folder's entries (a rename, a removal) durable: fsync of the folder itself, skipped where the file
    /// system cannot flush a folder (exFAT, SMB, NFS, FUSE answer EINVAL, ENOTSUP or ENOTTY): docs/build-output.md.
    static func syncFolder(_ folder: FilePath) throws {
        try flushFolder(folder)
    }

    private static func flushFolder(_ path: FilePath) throws {
        do {
            try flush(path, full: false)
        } catch let error as ODRPackError
            where [EINVAL, ENOTSUP, ENOTTY, EOPNOTSUPP].contains(error.systemError?.code ?? 0)
        {
            return
        }
    }

    /// fsync of a file or folder; `full` asks Darwin's drive to empty its cache too (F_FULLFSYNC).
    private static func flush(_ path: FilePath, full: Bool) throws {
        guard case .success(let descriptor) = openForReading(path) else {
            throw ODRPackError.system(.open, path)
        }
        defer { closeFile(descriptor) }
        #if canImport(Darwin)
            if full {
                guard fcntl(descriptor, F_FULLFSYNC) != -1 else {
                    throw ODRPackError.system(.flush, path)
                }
                return
            }
        #endif
        guard fsync(descriptor) == 0 else { throw ODRPackError.system(.flush, path) }
    }
}

// MARK: Clocks and file systems (docs/build-output.md#incremental)

extension SystemCall {
    /// The clock the kernel stamps a local file's times with, in nanoseconds since 1970: Linux takes file times from
    /// the coarse real-time clock, which may lag the precise one by a few milliseconds, so a time read from the
    /// precise clock could be later than the stamp of a file written after it.
    package static var fileClockNanoseconds: Int64 {
        var now = timespec()
        #if os(Linux)
            clock_gettime(CLOCK_REALTIME_COARSE, &now)
        #else
            clock_gettime(CLOCK_REALTIME, &now)
        #endif
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Whether the file system holding `path` stamps times with another machine's clock (NFS, SMB, FUSE and other
    /// network or user-space file systems), whose skew from this one's is unknown; nil when it cannot be told.
    package static func isRemoteFileSystem(_ path: FilePath) -> Bool? {
        #if os(Linux)
            let type = path.withPlatformString { odrpack_file_system_type($0) }
            guard type >= 0 else { return nil }
            // NFS, SMB, CIFS, SMB2, FUSE (sshfs, virtiofs, …), 9P, Ceph, AFS, Coda, NCP, GFS2, OCFS2, Lustre, vboxsf.
            let remote: Set<UInt32> = [
                0x6969, 0x517B, 0xFF53_4D42, 0xFE53_4D42, 0x6573_5546, 0x0102_1997, 0x00C3_6400, 0x5346_414F,
                0x7375_7245, 0x564C, 0x0116_1970, 0x7461_636F, 0x0BD0_0BD0, 0x786F_4256,
            ]
            return remote.contains(UInt32(truncatingIfNeeded: type))
        #else
            var info = statfs()
            guard path.withPlatformString({ Darwin.statfs($0, &info) }) == 0 else { return nil }
            return info.f_flags & UInt32(MNT_LOCAL) == 0
        #endif
    }
}

extension SystemCall {
    /// The current user's home folder as the user database names it (what `~` means without `$HOME`); nil when the
    /// user has no entry or no absolute home.
    package static var userHome: FilePath? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(getuid(), &entry, &buffer, buffer.count, &found) == 0, found != nil, let home = entry.pw_dir
        else { return nil }
        let path = FilePath(platformString: home)
        return path.isAbsolute && !path.components.isEmpty ? path : nil
    }
}
