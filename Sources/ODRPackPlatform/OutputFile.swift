#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file of a pack folder being written: mode 0644 whatever the umask, and the entry time once finished.
package struct OutputFile {
    let descriptor: Int32
    let path: FilePath

    package init(path: FilePath) throws {
        descriptor = path.withPlatformString { open($0, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw ODRPackError.system(.create, path) }
        self.path = path
    }

    package func close() { SystemCall.closeFile(descriptor) }

    /// Writes all of `bytes`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        let failure = SystemCall.writeAll(descriptor, bytes)
        guard failure == 0 else { throw ODRPackError.system(.write, path, failure) }
    }

    /// Sets the mode and the time; with `startingWriteback`, starts writing the file's pages to the disk.
    package func finish(time: Int64, startingWriteback: Bool = true) throws {
        if startingWriteback { SystemCall.startWriteback(descriptor) }
        guard fchmod(descriptor, 0o644) == 0 else {
            throw ODRPackError.system(.setMode, path)
        }
        let times = Self.times(time)
        guard futimens(descriptor, times) == 0 else {
            throw ODRPackError.system(.setTime, path)
        }
    }

    /// Sets a finished file's mode (0644) and time, by its path.
    package static func setFileAttributes(_ path: FilePath, time: Int64) throws {
        try setAttributes(path, mode: 0o644, time: time)
    }

    /// Sets a finished folder's mode (0755) and time, by its path.
    package static func setFolderAttributes(_ path: FilePath, time: Int64) throws {
        try setAttributes(path, mode: 0o755, time: time)
    }

    private static func setAttributes(_ path: FilePath, mode: mode_t, time: Int64) throws {
        guard path.withPlatformString({ chmod($0, mode) }) == 0 else {
            throw ODRPackError.system(.setMode, path)
        }
        let times = Self.times(time)
        guard path.withPlatformString({ utimensat(AT_FDCWD, $0, times, AT_SYMLINK_NOFOLLOW) }) == 0 else {
            throw ODRPackError.system(.setTime, path)
        }
    }

    /// Access and modification time, as the two-element array the calls read (a tuple's element would be copied alone).
    private static func times(_ seconds: Int64) -> [timespec] {
        Array(repeating: timespec(tv_sec: time_t(seconds), tv_nsec: 0), count: 2)
    }
}
