import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes to stdout or stderr with `write(2)`: a failed write (disk full, closed pipe) is an error the
/// front end turns into exit 2, where Foundation's `FileHandle.write(_:)` would trap.
package enum StandardStream {
    package static let output = STDOUT_FILENO
    package static let error = STDERR_FILENO

    /// A file-size limit and a closed pipe become write errors (exit 2), not deaths by signal: call once at start-up.
    package static func reportFailedWritesAsErrors() {
        signal(SIGXFSZ, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Appends `text` to the file at `path`, creating it (0644) if needed, as a shell's `>>` does.
    /// - Parameter name: what the file is, for the error (`GITHUB_STEP_SUMMARY`).
    package static func append(_ text: String, toFileAt path: String, name: String) throws {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ODRPackError.system("cannot open \(name) '\(path)'") }
        defer { SystemCall.closeFile(descriptor) }
        try write(text, to: descriptor)
    }

    package static func write(_ text: String, to descriptor: Int32) throws {
        var text = text
        try text.withUTF8 { bytes in
            let failure = SystemCall.writeAll(descriptor, UnsafeRawBufferPointer(bytes))
            guard failure == 0 else {
                throw ODRPackError.system(
                    "cannot write to \(descriptor == output ? "standard output" : "standard error")", failure)
            }
        }
    }
}
