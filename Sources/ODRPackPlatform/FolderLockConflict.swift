/// Why a folder odrpack must write in is taken by another odrpack process, and the command was told not to wait (or
/// cannot), as a fact of `ODRPackError.folderLocked` (docs/build-output.md): the folder or lock file, as a path or as
/// the user wrote it. The sentence is made from the facts in one place, `description`.
package enum FolderLockConflict: Sendable, Equatable, CustomStringConvertible {
    /// Another process holds the `flock` on this lock file.
    case held(FilePath)
    /// Another build or thin holds the build folder (as the user wrote it).
    case buildFolderInUse(String)
    /// Another upload holds the upload lock of this build folder.
    case uploadRunning(FilePath)
    /// The working folder a process makes (this path) is there already: another live process works in it.
    case workingFolderTaken(FilePath)
    /// Another process removed the working folder (this path) between this one's mkdir and its lock.
    case workingFolderRemoved(FilePath)

    package var description: String {
        switch self {
        case .held(let path): return "another process holds '\(path.text)'"
        case .buildFolderInUse(let folder):
            return """
                another odrpack build or thin is using '\(folder)': wait for it to finish, or run without --no-wait \
                to wait
                """
        case .uploadRunning(let folder):
            return """
                another odrpack upload is sending the packs of '\(folder.text)': let it finish, then run upload again \
                if it failed (it goes on from what was sent)
                """
        case .workingFolderTaken(let path):
            return "another odrpack process works in '\(path.text)': wait for it to finish, then run again"
        case .workingFolderRemoved(let path):
            return "another odrpack process removed '\(path.text)' as this one made it: run again"
        }
    }
}
