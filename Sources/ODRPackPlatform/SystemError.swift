#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call's errno, with the system's words for it.
package struct SystemError: Error, Sendable, Equatable {
    package let code: Int32

    package init(_ code: Int32) { self.code = code }

    /// The errno the last failed call left.
    package static var last: SystemError { SystemError(errno) }

    package var reason: String { String(cString: strerror(code)) }
    package var isLoop: Bool { code == ELOOP }
    /// The path does not exist.
    package var isMissing: Bool { code == ENOENT }
    /// The path does not exist, or a part of it that should be a folder is not one.
    package var isMissingOrNotFolder: Bool { code == ENOENT || code == ENOTDIR }
}
