#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call's errno, with the system's words for it.
public struct SystemError: Error, Sendable, Equatable {
    public var code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The errno the last failed call left.
    static var last: SystemError { SystemError(errno) }

    public var reason: String { String(cString: strerror(code)) }
    public var isLoop: Bool { code == ELOOP }
}
