import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes to stdout or stderr with `write(2)`: a failed write (disk full) is an error the front end turns into exit 2,
/// where Foundation's `FileHandle.write(_:)` would trap.
///
/// A reader of stdout that went away (`odrpack plan --json | head -1`) is no failure (docs/commands.md#scripts): the
/// first write that meets the closed pipe marks stdout closed, it and every later write to stdout are dropped
/// silently, and the command ends with the status its work has, as cargo and ripgrep do. This is the one place that
/// decides it: every write to stdout goes through here.
package enum StandardStream {
    package static let output = STDOUT_FILENO
    package static let error = STDERR_FILENO

    /// SIGPIPE would kill the process (exit 141) before the work is done, and a file-size limit likewise: both become
    /// failed writes instead, which `write` sorts out. Call once at start-up.
    package static func reportFailedWritesAsErrors() {
        signal(SIGXFSZ, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Whether the reader of stdout went away: nothing more is written there.
    package static var outputClosed: Bool { closed.withLock { $0 } }
    private static let closed = Locked(false)

    /// Appends `text` to the file at `path`, creating it (0644) if needed, as a shell's `>>` does.
    /// - Parameter name: what the file is, for the error (`GITHUB_STEP_SUMMARY`).
    package static func append(_ text: String, toFileAt path: FilePath, name: String) throws {
        let descriptor = path.withPlatformString { open($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw ODRPackError.system(.openKind(name), path) }
        defer { SystemCall.closeFile(descriptor) }
        try write(text, to: descriptor)
    }

    package static func write(_ text: String, to descriptor: Int32) throws {
        var text = text
        try text.withUTF8 { bytes in try write(bytes: UnsafeRawBufferPointer(bytes), to: descriptor) }
    }

    /// Writes all of `bytes`; on stdout, a closed pipe ends the output silently (see the type's comment).
    /// - Throws: any other failed write, naming the stream (exit 2).
    package static func write(bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws {
        if descriptor == output && outputClosed { return }
        let failure = SystemCall.writeAll(descriptor, bytes)
        if failure == 0 { return }
        if failure == EPIPE && descriptor == output {
            closed.withLock { $0 = true }
            return
        }
        throw ODRPackError.system(.writeStream(descriptor), failure)
    }
}
