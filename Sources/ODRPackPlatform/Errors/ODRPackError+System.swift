#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ODRPackError {
    /// A failed system call with the system's reason, e.g. `cannot open 'a.png': Permission denied`.
    package static func system(_ what: String, _ code: Int32 = errno) -> ODRPackError {
        .io("\(what): \(String(cString: strerror(code)))", errno: code)
    }
}
