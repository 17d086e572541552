/// Why the tool could not do its job: the one fatal error type, every case exit 2 but `usage` (64); the front end
/// maps it in one place. Problems with the project itself are `Diagnostic`s instead.
package enum ODRPackError: Error, CustomStringConvertible {
    /// A system call failed: what was being done to which path, with the system's errno.
    case io(String, errno: Int32)
    /// A resource changed between planning and archiving, or while it was read.
    case fileChanged(String)
    /// The build's own inputs are wrong (SOURCE_DATE_EPOCH, options).
    case invalidInput(String)
    /// An input the command needs cannot be used at all: no manifest, a corrupt build manifest, an unreadable project.
    case unusableInput(String)
    /// The command line asks for something the project cannot do with it, found only once the manifest is read
    /// (exit 64, as a bad command line).
    case usage(String)

    package var description: String {
        switch self {
        case let .io(message, _): return message
        case let .fileChanged(message): return message
        case let .invalidInput(message): return message
        case let .unusableInput(message): return message
        case let .usage(message): return message
        }
    }
}
