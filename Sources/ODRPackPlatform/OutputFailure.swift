/// Why a command will not write where it was told (docs/commands.md#scripts), as a fact of `ODRPackError.output`: a
/// lock file that is not one odrpack can hold, an output FILE that would destroy an input or a build folder's own
/// file, a document that cannot be spliced into another. Each is exit 2 and `unusable-input`, the code these failures
/// had as sentences.
package enum OutputFailure: Sendable, Equatable, CustomStringConvertible {
    /// The lock file is a symbolic link, which odrpack never follows.
    case lockFileIsLink(FilePath)
    /// The lock file is not a regular file (a FIFO, a device).
    case lockFileNotRegular(FilePath)
    /// The output FILE (as given) is the same file as one the command (`report`) reads.
    case outputIsInput(output: String, input: FilePath, command: String)
    /// The output FILE (as given) is one of the files a build folder owns (docs/build-output.md#ownership): its path in
    /// that folder, and the folder.
    case outputIsBuildFolderFile(output: String, relative: String, folder: FilePath)
    /// A JSON document to splice into another is not an object with members: an internal error.
    case spliceNotAnObject

    package var description: String {
        switch self {
        case .lockFileIsLink(let path):
            return """
                the lock file '\(path.text)' is a symbolic link, which odrpack never follows: remove it (a build \
                makes its own)
                """
        case .lockFileNotRegular(let path):
            return "the lock file '\(path.text)' is not a regular file: remove it (a build makes its own)"
        case .outputIsInput(let output, let input, let command):
            return """
                cannot write '\(output)': it is '\(input.text)', which \(command) reads, and writing it would destroy it; \
                name another file
                """
        case .outputIsBuildFolderFile(let output, let relative, let folder):
            return """
                cannot write '\(output)': it is '\(relative)' of the build folder '\(folder.text)', which only odrpack \
                writes; name a file outside the build's own files
                """
        case .spliceNotAnObject: return "a JSON document to splice is not an object with members"
        }
    }
}
