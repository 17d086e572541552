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
}
