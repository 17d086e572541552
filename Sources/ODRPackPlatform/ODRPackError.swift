/// Why the tool could not do its job: the one fatal error type, one case per kind of failure. Every case is exit 2
/// but `usage` (64); the front end maps them in one place. Problems with the project itself are `Diagnostic`s.
package enum ODRPackError: Error, CustomStringConvertible, Equatable {
    /// A system call failed: what was being done (`cannot write 'x.zip'`) and the errno the system gave.
    case systemCall(String, SystemError)
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
        case .fileOperation(let message), .fileChanged(let message), .folderLocked(let message),
            .commandFailed(let message),
            .libraryFailed(let message), .unusableInput(let message), .unbuildable(let message), .usage(let message):
            return message
        }
    }
}
