import ODRPackCore
import ODRPackPlatform
import ODRPackReport

/// Upload's progress: the one `ProgressBar` of long work, counting packs finished and the bytes App Store Connect
/// accepted; pack lines go through it so that the bar is cleared before a line is printed and drawn again after it.
package struct UploadProgress: Sendable {
    let bar: ProgressBar
    /// The command's stdout (pack lines) and stderr (`--verbose`).
    let streams: CommandStreams

    package init(bar: ProgressBar, streams: CommandStreams) {
        self.bar = bar
        self.streams = streams
    }

    /// The packs of the run and the bytes to send (those not already committed).
    package func begin(packs: Int, bytes: Int64) { bar.begin(units: packs, bytes: bytes) }

    package func add(_ bytes: Int64) { bar.add(bytes: bytes) }

    /// A pack finished: `line` on stdout (nil: nothing printed, `--json`) with the bar out of its way.
    /// - Throws: `ODRPackError.io` when the write fails (the caller's exit 2).
    package func finished(printing line: String?) throws {
        defer { bar.unitFinished() }
        guard let line else { return }
        try bar.printing { try streams.output.write(line) }
    }

    /// A `--verbose` line on stderr, with the bar out of its way; a line that cannot be written is dropped (the run
    /// goes on: the request log is a help, not the result).
    /// One line on stderr (`--verbose`'s requests): App Store Connect's `errors[]` text is the server's, so its control
    /// characters are shown escaped (docs/commands.md#scripts), never sent to the terminal.
    package func note(_ line: String) {
        try? bar.printing { try streams.error.write(TerminalText.escaped(line) + "\n") }
    }

    package func end() { bar.end() }
}
