import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real disk, through the C library.
package struct LocalFileSystem: ResourceFileSystem {
    package var jobs: Int

    package init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount) { self.jobs = jobs }

    package func resolvedPath(_ path: String) -> Result<String, SystemError> {
        guard let real = realpath(path, nil) else { return .failure(.last) }
        defer { free(real) }
        return .success(String(cString: real))
    }

    package func status(_ path: String, followingLinks: Bool) -> Result<FileStatus, SystemError> {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return .failure(.last) }
        return .success(FileStatus(info))
    }

    package func scan(_ path: String) -> FileTree {
        FileTreeScanner(jobs: jobs).scan(path)
    }

    /// A whole file read to its end, which may be a pipe (`odrpack diff <(git show ...) new`): its size is only a hint.
    package func contents(of path: String) -> Result<[UInt8], SystemError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.last) }
        defer { SystemCall.closeFile(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.last) }
        guard (info.st_mode & S_IFMT) != S_IFDIR else { return .failure(SystemError(EISDIR)) }
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        var done = 0
        while true {
            if done == bytes.count { bytes += [UInt8](repeating: 0, count: max(bytes.count, 1 << 16)) }
            let read = bytes.withUnsafeMutableBytes { SystemCall.readBytes(descriptor, $0.baseAddress! + done, $0.count - done) }
            if read < 0 && errno == EINTR { continue }
            if read < 0 { return .failure(.last) }
            if read == 0 { break }
            done += read
        }
        bytes.removeSubrange(done...)
        return .success(bytes)
    }

    package func read(_ path: String, count: Int, at offset: Int64) -> Result<[UInt8], SystemError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.last) }
        defer { SystemCall.closeFile(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if read < 0 && errno == EINTR { continue }
            if read < 0 { return .failure(.last) }
            if read == 0 { break }
            done += read
        }
        return .success(Array(bytes.prefix(done)))
    }
}
