import Foundation

@testable import ODRPackPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls the tests make to set up odd fixtures (times, modes, pipes, raw names, signals): the one test
/// file that imports Glibc/Darwin, as `ODRPackPlatform` is for the product.
enum TestSystem {
    /// Sets a file's access and modification times.
    static func setTimes(_ path: String, seconds: Int, nanoseconds: Int = 0) {
        var times = Array(repeating: timespec(tv_sec: seconds, tv_nsec: nanoseconds), count: 2)
        utimensat(AT_FDCWD, path, &times, 0)
    }

    /// Runs `body` (which rewrites the file), then puts the file's access and modification times back, so that only
    /// its change time tells.
    static func keepingTimes(of path: String, _ body: () throws -> Void) rethrows {
        var info = stat()
        stat(path, &info)
        try body()
        #if os(Linux)
            var times = [info.st_atim, info.st_mtim]
        #else
            var times = [info.st_atimespec, info.st_mtimespec]
        #endif
        utimensat(AT_FDCWD, path, &times, 0)
    }

    static func setMode(_ path: String, _ mode: Int) {
        chmod(path, mode_t(mode))
    }

    /// Makes a named pipe; false when it cannot.
    static func makeFIFO(_ path: String, mode: Int = 0o644) -> Bool {
        mkfifo(path, mode_t(mode)) == 0
    }

    /// Whether `path` itself (not followed) is a named pipe.
    static func isFIFO(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
    }

    /// Opens a named pipe to read without waiting for a writer; -1 when it cannot.
    static func openFIFOForReading(_ path: String) -> Int32 {
        open(path, O_RDONLY | O_NONBLOCK)
    }

    /// What is waiting in a pipe, up to `count` bytes.
    static func readAvailable(_ descriptor: Int32, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = read(descriptor, &bytes, count)
        return Array(bytes.prefix(max(0, got)))
    }

    /// Opens a named pipe to write (waiting for a reader), writes `text` and closes it.
    static func send(_ text: String, throughFIFO path: String) {
        let descriptor = open(path, O_WRONLY)
        _ = text.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count - 1) }
        SystemCall.closeFile(descriptor)
    }

    /// Creates an empty file at a path given as raw bytes (which need not be UTF-8); false when it cannot.
    static func createFile(rawPath: [UInt8]) -> Bool {
        let descriptor = (rawPath + [0]).withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                open($0, O_CREAT | O_WRONLY, 0o644)
            }
        }
        guard descriptor >= 0 else { return false }
        SystemCall.closeFile(descriptor)
        return true
    }

    /// A file of exactly `size` bytes that holds no data: large sizes without writing gigabytes.
    static func makeSparseFile(_ path: String, size: Int64) throws {
        let descriptor = try SystemCall.createFile(FilePath(path))
        defer { SystemCall.closeFile(descriptor) }
        if let failure = SystemCall.truncate(descriptor, to: size) { throw failure }
    }

    /// The path with every symbolic link resolved (Foundation's own resolving drops macOS's `/private`).
    static func realPath(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Sets this process's `TZ` (nil removes it) and makes the C library read it again.
    static func setTimeZone(_ zone: String?) {
        if let zone { setenv("TZ", zone, 1) } else { unsetenv("TZ") }
        tzset()
    }

    /// Ends a child process at once (SIGKILL), as a power cut or `kill -9` would.
    static func killAtOnce(_ processID: Int32) {
        kill(processID, SIGKILL)
    }

    /// Makes the process's character-type locale UTF-8 if it is not, for libarchive's name conversion.
    static func ensureUTF8CharacterLocale() {
        let current = setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "C"
        if !current.uppercased().contains("UTF-8") && !current.uppercased().contains("UTF8") {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }
}
