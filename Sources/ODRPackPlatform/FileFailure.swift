/// A file operation that failed where the system gave no errno (Foundation's file manager, a read whose reason is not
/// kept, a roll-back that could not finish), as a fact of `ODRPackError.file`: the paths apart, and Foundation's reason
/// as a named field, so the message is made here, in one place.
package enum FileFailure: Sendable, Equatable, CustomStringConvertible {
    /// A link's target cannot be read (Foundation's `destinationOfSymbolicLink`): the link, and Foundation's reason.
    case linkUnreadable(FilePath, reason: String)
    /// A file cannot be read whole (an app's property list).
    case unreadable(FilePath)
    /// Thin failed, and putting the app back failed too: the first failure's message, the paths left as they are, and
    /// the folder that holds the removed files.
    case rollBackFailed(cause: String, unrestored: [FilePath], aside: FilePath)

    package var description: String {
        switch self {
        case .linkUnreadable(let link, let reason): return "cannot read the link '\(link.text)': \(reason)"
        case .unreadable(let path): return "cannot read '\(path.text)'"
        case .rollBackFailed(let cause, let unrestored, let aside):
            return "\(cause); putting the app back also failed for \(unrestored.map(\.text).joined(separator: ", "))"
                + " (the removed files are in '\(aside.text)')"
        }
    }
}
