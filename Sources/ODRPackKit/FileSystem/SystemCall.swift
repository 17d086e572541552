#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
import Foundation
#endif

/// The few C calls that differ between Linux (Glibc) and macOS (Darwin), or that a type's own `write`/`close`
/// methods would shadow: every platform branch of the package is here.
enum SystemCall {
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

    @discardableResult
    static func closeFile(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Darwin.close(descriptor)
        #endif
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
    static var executablePath: String {
        #if os(Linux)
        "/proc/self/exe"
        #else
        Bundle.main.executablePath ?? CommandLine.arguments[0]
        #endif
    }

    /// Modification and status-change times from a stat, in nanoseconds since 1970.
    static func modificationAndChange(_ info: stat) -> (modified: Int64, changed: Int64) {
        #if os(Linux)
        let (modified, changed) = (info.st_mtim, info.st_ctim)
        #else
        let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #endif
        return (Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec),
                Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec))
    }

    /// The device number as an unsigned value: `dev_t` is a UInt64 on Linux and an Int32 on Darwin.
    static func device(_ info: stat) -> UInt64 {
        UInt64(truncatingIfNeeded: info.st_dev)
    }
}
