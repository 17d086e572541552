import Foundation
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// The conventions every command keeps when it talks (docs/commands.md#conventions), in one place: human output on
/// stdout, problems and progress on stderr, `odrpack: error:` and `odrpack: warning:` for the tool's own messages,
/// `--quiet`, the colour decision, the progress style and the `--json` envelope.
package struct Console: Sendable {
    /// `--color`: `auto` colours a terminal unless told not to.
    package enum ColorMode: String, CaseIterable, Sendable { case auto, always, never }
    /// `--progress`: `auto` draws a bar on a terminal; `always` also prints lines where there is none.
    package enum ProgressMode: String, CaseIterable, Sendable { case auto, always, never }

    /// Only errors and the `--json` document.
    package let quiet: Bool
    let colorOnStderr: Bool
    /// Stderr is a terminal that may be animated (neither NO_COLOR nor TERM=dumb).
    package let stderrIsInteractive: Bool
    let stderrIsTerminal: Bool
    /// GitHub Actions (`GITHUB_ACTIONS=true`) or any CI (`CI=true`): `--progress auto` prints a line every 10 seconds.
    package let continuousIntegration: Bool

    /// Where the command prints: its stdout and stderr (`CommandStreams`), the process's or a test's.
    package let streams: CommandStreams

    /// - Parameters:
    ///   - environment: the command's environment (`NO_COLOR`, `TERM`, `CI`, the forcing variables).
    ///   - streams: the command's stdout and stderr.
    ///   - stderrIsTerminal: what stderr is, else what `streams` says it is (a test of the progress style says).
    package init(
        quiet: Bool = false, color: ColorMode = .auto, environment: [String: String], streams: CommandStreams,
        stderrIsTerminal: Bool? = nil
    ) {
        self.quiet = quiet
        self.streams = streams
        let stderrIsTerminal = stderrIsTerminal ?? streams.error.isTerminal
        self.stderrIsTerminal = stderrIsTerminal
        stderrIsInteractive = stderrIsTerminal && Self.animationAllowed(environment)
        continuousIntegration = ["GITHUB_ACTIONS", "CI"].contains { environment[$0]?.lowercased() == "true" }
        colorOnStderr = Self.usesColor(color, isTerminal: stderrIsTerminal, environment: environment)
    }

    /// `auto`: a terminal, and neither `NO_COLOR` nor `TERM=dumb`; `CLICOLOR_FORCE=1` or `FORCE_COLOR` set to anything
    /// but `0` make it `always` (GitHub Actions logs are no terminal but show colour).
    package static func usesColor(_ mode: ColorMode, isTerminal: Bool, environment: [String: String]) -> Bool {
        switch mode {
        case .always: return true
        case .never: return false
        case .auto:
            if environment["CLICOLOR_FORCE"] == "1" { return true }
            if let force = environment["FORCE_COLOR"], force != "0" { return true }
            return isTerminal && animationAllowed(environment)
        }
    }

    static func animationAllowed(_ environment: [String: String]) -> Bool {
        environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    /// How long work shows progress: a bar only on a terminal that may be animated, lines where `always` asks for
    /// them, nothing under `never` (or `--quiet`, unless `always` is asked for explicitly).
    package func progressStyle(_ mode: ProgressMode) -> ProgressStyle {
        switch mode {
        case .never: return .none
        case .auto:
            // Off a terminal in CI, a line every 10 s, as cargo prints its lines: a log that shows the job is alive.
            if quiet { return .none }
            return stderrIsInteractive ? .bar : continuousIntegration ? .heartbeat : .none
        case .always: return stderrIsInteractive ? .bar : .lines
        }
    }

    // MARK: Output
    //
    // Every text goes out through `TerminalText.escaped` (its own line breaks kept): a control character in a name
    // is shown, never obeyed by the terminal; the colours Console adds itself are painted after.

    /// Human output on stdout; nothing under `--quiet`.
    /// - Throws: `ODRPackError.io` when the write fails (exit 2).
    package func printOut(_ text: String) throws {
        guard !quiet else { return }
        try streams.output.write(Self.shown(text))
    }

    /// A `Wrote FILE` line: on stdout, or on stderr when the document it announces went to stdout, so a script that
    /// reads the document reads nothing else (docs/commands.md#scripts). Nothing under `--quiet`.
    package func printWrote(_ text: String, toStandardOutput documentOnStandardOutput: Bool) throws {
        try documentOnStandardOutput ? printNote(text) : printOut(text)
    }

    /// Stdout whatever `--quiet` says: GitHub annotations and other output a flag asked for by name.
    package func printRequested(_ text: String) throws {
        try streams.output.write(TerminalText.workflowCommands(text))
    }

    /// Stderr text that belongs to an error (a count of errors, what was left unchanged): printed under `--quiet` too.
    package func printError(_ text: String) throws {
        try streams.error.write(Self.shown(text))
    }

    /// Stderr text that informs (waiting for a lock, notes); nothing under `--quiet`.
    package func printNote(_ text: String) throws {
        guard !quiet else { return }
        try streams.error.write(Self.shown(text))
    }

    /// `odrpack: error: message`, the one voice of every failure.
    package func error(_ message: String) throws {
        try streams.error.write("odrpack: \(paint("error:", Self.red)) \(Self.shown(message))\n")
    }

    /// `odrpack: warning: message` for a warning that is no diagnostic; nothing under `--quiet`.
    package func warning(_ message: String) throws {
        guard !quiet else { return }
        try streams.error.write("odrpack: \(paint("warning:", Self.amber)) \(Self.shown(message))\n")
    }

    /// Text as it reaches a terminal: control characters escaped, line breaks kept.
    static func shown(_ text: String) -> String { TerminalText.escaped(text, keepingLineBreaks: true) }

    /// One diagnostic a line, compiler style, on stderr; under `--quiet` only the errors, unless the warnings fail the
    /// run too (`--warnings-as-errors`).
    package func printDiagnostics(_ diagnostics: [Diagnostic], warningsFail: Bool = false) throws {
        var text = ""
        for diagnostic in diagnostics.inPositionOrder where !quiet || warningsFail || diagnostic.severity == .error {
            var line = diagnostic.formatted
            let word = diagnostic.severity.rawValue + ":"
            if colorOnStderr, let range = line.range(of: word) {
                line.replaceSubrange(range, with: paint(word, diagnostic.severity == .error ? Self.red : Self.amber))
            }
            text += line + "\n"
        }
        // `formatted` escaped each line already, and the colour is Console's own.
        if !text.isEmpty { try streams.error.write(text) }
    }

    static let red = "\u{1B}[1;31m"
    static let amber = "\u{1B}[1;33m"

    func paint(_ word: String, _ color: String) -> String { colorOnStderr ? color + word + "\u{1B}[0m" : word }

    // MARK: JSON

    /// Prints a `--json` document in the envelope every command's document has (`schemaVersion`, `diagnostics`), even
    /// under `--quiet`, and remembers that stdout holds it.
    package func printJSON(_ document: JSONValue) throws {
        try printJSON(text: JSONEnvelope.wrap(document).serialized())
    }

    /// A document already serialized (build's, which splices the manifest it wrote): its envelope keys added.
    package func printJSON(text: String) throws {
        try streams.output.write(JSONEnvelope.wrap(serialized: text))
        streams.documentStarted()
    }

    /// A document written by `write` member by member and printed a chunk at a time as it is made
    /// (docs/build-output.md#bounded): for the documents that list every file (`plan`, `build`, `thin`, `diff`), which
    /// would otherwise be held whole. `write` writes `schemaVersion` first and `diagnostics`, as `JSONEnvelope.wrap`
    /// would add them.
    package func printJSON(streaming write: (inout JSONObjectStream) throws -> Void) throws {
        let streams = streams
        var stream = JSONObjectStream { chunk in
            streams.documentStarted()
            try streams.output.write(bytes: chunk)
        }
        try write(&stream)
        try stream.finish()
    }

    /// Whether a `--json` document reached stdout: a failure after it prints no second one.
    package var hasPrintedJSON: Bool { streams.hasPrintedDocument }

    /// Where a progress bar draws: the command's stderr (a line that cannot be written is dropped: the bar is a
    /// help, not the result).
    package var progressWriter: @Sendable (String) -> Void {
        let error = streams.error
        return { try? error.write($0) }
    }

    /// `2 errors, 1 warning`, then `, 2 warnings allowed by the manifest` when its `allow` lists took some
    /// (docs/manifest.md#allowed-warnings).
    package static func countSummary(_ diagnostics: [Diagnostic], allowed: [Diagnostic] = []) -> String {
        let errors = diagnostics.errorCount
        let warnings = diagnostics.warningCount
        var summary = "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        if !allowed.isEmpty {
            summary += ", \(allowed.count) warning\(allowed.count == 1 ? "" : "s") allowed by the manifest"
        }
        return summary
    }
}
