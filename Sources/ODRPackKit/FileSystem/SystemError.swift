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
    /// The path does not exist.
    public var isMissing: Bool { code == ENOENT }
    /// The path does not exist, or a part of it that should be a folder is not one.
    public var isMissingOrNotFolder: Bool { code == ENOENT || code == ENOTDIR }

    /// Codes that code outside this folder reports without naming the C library's constants.
    public static let noSuchFile = SystemError(ENOENT)
    public static let ioFailure = SystemError(EIO)
    public static let outOfMemory = SystemError(ENOMEM)
    public static let invalidArgument = SystemError(EINVAL)
}
