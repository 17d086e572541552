#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ODRPackError {
    /// A failed system call that names no `FilePath` with the errno it left (or the one given): `system(.named(.open,
    /// "a.png"))` prints `cannot open 'a.png': Permission denied`.
    package static func system(_ failure: SystemFailure, _ code: Int32 = errno) -> ODRPackError {
        .call(failure, SystemError(code))
    }

    /// A failed file-system call on `path` with the errno it left (or the one given), its operation, path and errno
    /// held apart: `system(.write, path)` prints `cannot write 'path': No space left on device`.
    package static func system(_ operation: FileOperation, _ path: FilePath, _ code: Int32 = errno) -> ODRPackError {
        .io(operation, path: path, SystemError(code))
    }
}
