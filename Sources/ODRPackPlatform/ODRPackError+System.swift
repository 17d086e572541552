#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ODRPackError {
    /// A failed system call with the errno it left (or the one given), e.g. `cannot open 'a.png': Permission denied`.
    package static func system(_ what: String, _ code: Int32 = errno) -> ODRPackError {
        .systemCall(what, SystemError(code))
    }

    /// A failed system call on `path` with the errno it left (or the one given), its path and errno held apart:
    /// `system("cannot open", path: "a.png")` prints as `system("cannot open 'a.png'")` does.
    package static func system(_ operation: String, path: String, _ code: Int32 = errno) -> ODRPackError {
        .pathCall(operation, path: path, SystemError(code))
    }
}
