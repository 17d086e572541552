/// What a failed file-system call was doing, as a fact of `ODRPackError.io`: the error holds the operation, the path
/// and the errno apart, and its message (`cannot write 'x.zip': No space left on device`) is made from them in one
/// place, `ODRPackError.description`.
package enum FileOperation: Sendable, Equatable {
    case open
    case create
    case read
    /// Reading back what this process wrote a moment ago (a spill file, a pack's local headers).
    case readBack
    /// Reading one kind of file, named in the message: `cannot read the manifest 'odrpack.yaml'`.
    case readKind(String)
    /// Opening one kind of file, named in the message: `cannot open GITHUB_STEP_SUMMARY 'summary.md'`.
    case openKind(String)
    case write
    case stat
    case list
    case setMode
    case setTime
    case flush
    case lock
    case openLockFile
    case readLockFile
    case createFolder
    case openFolder
    case remove
    case resolve
    /// A rename: the error's path is the source, this the destination.
    case move(to: FilePath)
    case makeLink
    case readLink
    /// Removing a file from the app being thinned: `cannot remove 'x' from the app`.
    case removeFromApp
    /// Opening the last build's archive to copy its unchanged entries into the new one.
    case copyFrom

    /// The words before the quoted path: `cannot write`.
    var verb: String {
        switch self {
        case .open: return "cannot open"
        case .create: return "cannot create"
        case .read: return "cannot read"
        case .readBack: return "cannot read back"
        case .readKind(let kind): return "cannot read \(kind)"
        case .openKind(let kind): return "cannot open \(kind)"
        case .write: return "cannot write"
        case .stat: return "cannot stat"
        case .list: return "cannot list"
        case .setMode: return "cannot set the mode of"
        case .setTime: return "cannot set the time of"
        case .flush: return "cannot flush"
        case .lock: return "cannot lock"
        case .openLockFile: return "cannot open the lock file"
        case .readLockFile: return "cannot read the lock file"
        case .createFolder: return "cannot create folder"
        case .openFolder: return "cannot open folder"
        case .remove: return "cannot remove"
        case .resolve: return "cannot resolve"
        case .move: return "cannot move"
        case .makeLink: return "cannot make the link"
        case .readLink: return "cannot read the link"
        case .removeFromApp: return "cannot remove"
        case .copyFrom: return "cannot open the last build's"
        }
    }

    /// The words after the quoted path, before the system's reason: ` to 'b'` for a move, ` to the disk` for a flush.
    var object: String {
        switch self {
        case .move(let destination): return " to '\(destination.text)'"
        case .flush: return " to the disk"
        case .removeFromApp: return " from the app"
        case .copyFrom: return " to copy its unchanged entries"
        default: return ""
        }
    }
}
