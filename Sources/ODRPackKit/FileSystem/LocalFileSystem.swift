import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real disk, through the C library.
public struct LocalFileSystem: ResourceFileSystem {
    public var jobs: Int

    public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount) { self.jobs = jobs }

    public func resolvedPath(_ path: String) -> Result<String, SystemError> {
        guard let real = realpath(path, nil) else { return .failure(.last) }
        defer { free(real) }
        return .success(String(cString: real))
    }

    public func status(_ path: String, followingLinks: Bool) -> Result<FileStatus, SystemError> {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return .failure(.last) }
        return .success(FileStatus(kind: FileStatus.Kind(mode: info.st_mode), stamp: FileStamp(info)))
    }

    public func scan(_ path: String) -> FileTree {
        FileTreeScanner(jobs: jobs).scan(path)
    }

    public func read(_ path: String, count: Int, at offset: Int64) -> Result<[UInt8], SystemError> {
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
