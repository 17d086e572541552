#if canImport(Glibc)
import Glibc
#endif

/// Why a build could not finish: the tool could not do its job (exit 2), or its input was wrong.
public enum BuildError: Error, CustomStringConvertible {
    /// Reading or writing failed (disk full, permissions, ...).
    case io(String, errno: Int32)
    /// A resource changed between planning and archiving, or while it was read.
    case fileChanged(String)
    /// The build's own inputs are wrong (SOURCE_DATE_EPOCH, options).
    case invalidInput(String)

    public var description: String {
        switch self {
        case let .io(message, _): return message
        case let .fileChanged(message): return message
        case let .invalidInput(message): return message
        }
    }
}

extension BuildError {
    /// A failed system call with the system's reason, e.g. `cannot open 'a.png': Permission denied`.
    static func system(_ what: String, _ code: Int32 = errno) -> BuildError {
        .io("\(what): \(String(cString: strerror(code)))", errno: code)
    }
}
