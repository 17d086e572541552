import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One of a command's two output streams, stdout or stderr (docs/architecture.md#commands): the process's descriptor
/// when odrpack runs as itself, or memory when a test runs a command in-process. Everything a command prints goes
/// through one, so no output reaches the process's streams behind the back of the run that prints it.
package protocol CommandOutput: Sendable {
    /// Writes all of `bytes`.
    /// - Throws: `ODRPackError.io` when the write fails (exit 2); a closed stdout is no failure.
    func write(bytes: UnsafeRawBufferPointer) throws

    /// A terminal: colour, the progress bar, and Ctrl-C's line break are for terminals only.
    var isTerminal: Bool { get }

    /// The device and inode of what the stream is open on, nil when it is no file (memory): `OutputTarget` takes a
    /// path that leads there for this stream (`-o /dev/./stdout`), and a command refuses a second document on it.
    var identity: (device: UInt64, inode: UInt64)? { get }
}

extension CommandOutput {
    package func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// A stream of the process: descriptor 1 or 2, written by `StandardStream` (a closed pipe on stdout ends its output
/// silently).
package struct DescriptorOutput: CommandOutput {
    package let descriptor: Int32

    package init(_ descriptor: Int32) { self.descriptor = descriptor }

    package func write(bytes: UnsafeRawBufferPointer) throws {
        try StandardStream.write(bytes: bytes, to: descriptor)
    }

    package var isTerminal: Bool { SystemCall.isTerminal(descriptor) }

    package var identity: (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }
}

/// A stream kept in memory, for a command run in-process (the tests' `runInProcess`): what was written, as bytes
/// and as text. A reference, so the run's streams and the caller see the same bytes; safe to write from the
/// command's worker threads.
package final class CapturedOutput: CommandOutput {
    private let bytes = Locked<[UInt8]>([])
    package let isTerminal: Bool

    /// - Parameter isTerminal: what the command believes (a test of the colour or the bar says it is one).
    package init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    package func write(bytes chunk: UnsafeRawBufferPointer) throws {
        bytes.withLock { $0.append(contentsOf: chunk) }
    }

    package var identity: (device: UInt64, inode: UInt64)? { nil }

    /// Everything written so far.
    package var data: [UInt8] { bytes.withLock { $0 } }

    /// Everything written so far, as text (bytes that are not UTF-8 repaired).
    package var text: String { String(decoding: data, as: UTF8.self) }
}

/// A command's stdout and stderr, and whether its `--json` document reached stdout (a failure after it prints no
/// second one, docs/commands.md#json): one value per run, so two runs in one process never share that fact.
package struct CommandStreams: Sendable {
    package let output: any CommandOutput
    package let error: any CommandOutput
    private let documentPrinted = Locked(false)

    package init(output: any CommandOutput, error: any CommandOutput) {
        self.output = output
        self.error = error
    }

    /// The process's own stdout and stderr.
    package static func process() -> CommandStreams {
        CommandStreams(output: DescriptorOutput(StandardStream.output), error: DescriptorOutput(StandardStream.error))
    }

    /// Whether a `--json` document (or its first chunk) reached stdout.
    package var hasPrintedDocument: Bool { documentPrinted.withLock { $0 } }

    /// Remembers that stdout holds a `--json` document.
    package func documentStarted() { documentPrinted.withLock { $0 = true } }

    /// The stream for descriptor 1 or 2 (the command's stdout and stderr, whatever they are), else nil.
    package func stream(_ descriptor: Int32) -> (any CommandOutput)? {
        descriptor == StandardStream.output ? output : descriptor == StandardStream.error ? error : nil
    }
}
