/// What a failed system call was doing when no `FilePath` holds what it names byte for byte, as a fact of
/// `ODRPackError.call`: the current folder (getcwd names no path), an output or a resource named as the message gives
/// it (an argument as typed, a resource's path in its pack), an output that cannot be written. The words are made
/// here, in one place; the errno is the error's.
package enum SystemFailure: Sendable, Equatable, CustomStringConvertible {
    /// The current folder cannot be had (getcwd), to make a relative path absolute.
    case currentFolder
    /// A file-system call on a name kept as the message shows it: a `FilePath` would drop a repeated or trailing
    /// slash, or stop at a NUL, and the message would no longer name what was given.
    case named(FileOperation, String)
    /// An output named as a descriptor (`/dev/fd/3`, `-` aside) that the process does not have open.
    case descriptorNotOpen(String, descriptor: Int32)
    /// An output that names a folder, where a file is wanted.
    case outputIsFolder(String)
    /// A write to a descriptor the process was given (stdout, stderr, another), which has no path to name.
    case writeStream(Int32)

    /// The words before the system's reason: `cannot find the current folder`.
    package var description: String {
        switch self {
        case .currentFolder: return "cannot find the current folder"
        case .named(let operation, let name): return "\(operation.verb) '\(name)'\(operation.object)"
        case .descriptorNotOpen(let name, let descriptor):
            return
                "cannot write '\(name)': descriptor \(descriptor) is not open (redirect it in the shell, or name a file)"
        case .outputIsFolder(let name): return "cannot write '\(name)': it is a folder: name a file"
        case .writeStream(StandardStream.output): return "cannot write to standard output"
        case .writeStream(StandardStream.error): return "cannot write to standard error"
        case .writeStream(let descriptor): return "cannot write to file descriptor \(descriptor)"
        }
    }
}
