/// Why the tool could not do its job: the one fatal error type, one case per kind of failure. Every case is exit 2
/// but `usage` (64); the front end maps them in one place. Problems with the project itself are `Diagnostic`s.
package enum ODRPackError: Error, CustomStringConvertible, Equatable {
    /// A system call failed: what was being done (`cannot write 'x.zip'`) and the errno the system gave.
    case systemCall(String, SystemError)
    /// A system call on one path failed, held apart so a caller can read the path and the errno rather than parse
    /// them: the operation (`cannot write`), the path, the errno. It prints as `systemCall` does
    /// (`cannot write 'x.zip': No space left on device`), and is made by `system(_:path:_:)`.
    case pathCall(String, path: String, SystemError)
    /// A file operation failed where the system gave no errno (Foundation's file manager): what, and its reason.
    case fileOperation(String)
    /// A resource or an output changed while the build read or finished it: run again once it is stable.
    case fileChanged(String)
    /// Another build or thin holds the folder's lock, and the command was told not to wait.
    case folderLocked(String)
    /// A command odrpack runs for the user (`--sign-command`, the Background Assets packager) is missing, failed,
    /// or broke the rules its output must follow.
    case commandFailed(String)
    /// A library odrpack calls (zlib, libdeflate) failed.
    case libraryFailed(String)
    /// An input the command needs cannot be used: no manifest, a corrupt build manifest or pack, an app that is no
    /// app bundle, an unreadable Xcode project.
    case unusableInput(String)
    /// The project cannot be written as asked (reserved paths, colliding asset pack ids, an output folder that is
    /// resources-root), though it breaks no rule of the store.
    case unbuildable(String)
    /// The command line asks for something the project cannot do with it, found only once the manifest is read.
    case usage(String)

    package var description: String {
        switch self {
        case .systemCall(let what, let error): return "\(what): \(error.reason)"
        case .pathCall(let operation, let path, let error): return "\(operation) '\(path)': \(error.reason)"
        case .fileOperation(let message), .fileChanged(let message), .folderLocked(let message),
            .commandFailed(let message),
            .libraryFailed(let message), .unusableInput(let message), .unbuildable(let message), .usage(let message):
            return message
        }
    }

    /// The stable `error.code` of the `--json` error document (docs/commands.md#json): a wire contract, so each case
    /// names its string literally and a new case does not compile until it has one; renaming a case changes nothing.
    /// `usage` is exit 64, the rest exit 2.
    package var jsonCode: String {
        switch self {
        case .systemCall, .pathCall, .fileOperation: return "io"
        case .fileChanged: return "file-changed"
        case .folderLocked: return "locked"
        case .commandFailed: return "command-failed"
        case .libraryFailed: return "library-failed"
        case .unusableInput: return "unusable-input"
        case .unbuildable: return "unbuildable"
        case .usage: return "usage"
        }
    }

    /// The errno of a failed system call, for a caller that acts on it (a missing file, a full disk); nil for the
    /// kinds that have none.
    package var systemError: SystemError? {
        switch self {
        case .systemCall(_, let error), .pathCall(_, _, let error): return error
        case .fileOperation, .fileChanged, .folderLocked, .commandFailed, .libraryFailed, .unusableInput,
            .unbuildable, .usage:
            return nil
        }
    }

    /// The path a failed system call was about, when the error holds it apart (`pathCall`).
    package var path: String? {
        if case .pathCall(_, let path, _) = self { return path }
        return nil
    }
}
