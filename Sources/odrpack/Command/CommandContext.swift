import ArgumentParser
import ODRPackBuild
import ODRPackCore
import ODRPackPlatform
import ODRPackReport

/// What a command talks through, built once by `ODRPackCommand.run()` from its `SharedOptions`: the console
/// (`--quiet`, `--color`), whether it prints the `--json` document, the warnings gate's exit, `--github`'s annotations
/// and summary, and the progress bar. Each of these means the same on every command because only this type does it.
/// All of it on the run's `CommandState`: its streams, its environment, its folder, never the process's behind its back.
struct CommandContext {
    /// How the command prints: stdout, stderr, the `--json` document (`Console.printJSON` wraps the envelope).
    let console: Console
    /// `--json`: the document on stdout instead of the text.
    let json: Bool
    /// The run's streams, environment and folder.
    let state: CommandState
    private let gate: WarningsGate?
    private let gateIsOn: Bool
    private let gitHub: GitHubOptions?
    private let progress: ProgressOptions?

    /// - Throws: `ValidationError` for an `ODRPACK_WARNINGS_AS_ERRORS` that is neither on nor off (exit 64).
    init(_ options: SharedOptions, state: CommandState) throws {
        console = options.output.console(environment: state.environment, streams: state.streams)
        json = options.json
        self.state = state
        gate = options.gate
        gateIsOn = try options.gate?.isOn(environment: state.environment) ?? false
        gitHub = options.gitHub
        progress = options.progress
    }

    /// The run's stdout and stderr.
    var streams: CommandStreams { state.streams }

    /// The run's environment.
    var environment: [String: String] { state.environment }

    /// `--warnings-as-errors` or `ODRPACK_WARNINGS_AS_ERRORS=1`, on a command with the gate: the library then writes
    /// nothing for a warning, as for an error.
    var warningsAsErrors: Bool { gateIsOn }

    /// Whether the warnings alone fail the run under the gate (it then says so as an error).
    func warningsFail(_ diagnostics: [Diagnostic]) throws -> Bool {
        guard gate != nil else { return false }
        return try WarningsGate.failsOnWarnings(diagnostics, isOn: gateIsOn, console: console, json: json)
    }

    /// Ends the run with exit 1 for an error, or for a warning under the gate; returns when the run passed.
    func exitOnFailure(_ diagnostics: [Diagnostic]) throws {
        if try warningsFail(diagnostics) || diagnostics.hasErrors { throw ExitCode(1) }
    }

    /// `--github`: whether annotations go to stdout.
    var annotatesGitHub: Bool { gitHub?.github ?? false }

    /// `--github`: a failure that is no diagnostic (upload's, submit's, status's) as an `::error` annotation titled
    /// `odrpack COMMAND` on stdout, whatever `--quiet` says; nothing without the flag.
    func annotateFailure(_ message: String, command: String) throws {
        guard annotatesGitHub else { return }
        try console.printRequested(GitHubActions.error(title: "odrpack \(command)", message: message))
    }

    /// A store command's failures that are no diagnostic: each an `odrpack: error:` line on stderr and, under
    /// `--github`, an annotation.
    func reportFailures(_ failures: [String], command: String) throws {
        for failure in failures {
            try console.printError("odrpack: error: \(failure)\n")
            try annotateFailure(failure, command: command)
        }
    }

    /// `--github`: every problem as an annotation on stdout, then the step summary; nothing without the flag.
    func emitGitHub(_ diagnostics: [Diagnostic], summary: @autoclosure () -> String) throws {
        try gitHub?.emit(diagnostics, summary: summary(), console: console, environment: environment)
    }

    /// The bar of the command's long work, or nothing, as `--progress`, the terminal and `--quiet` decide.
    func progressBar(unit: String = "packs") -> ProgressBar {
        progress?.bar(console, unit: unit) ?? ProgressBar.silent(unit: unit)
    }

    /// Build's own progress, which draws the same bar.
    func buildProgress() -> BuildProgress { BuildProgress(bar: progressBar()) }

    /// The note a command prints when a build holds `folder`'s lock and it waits for it (verify, thin, ipa, upload).
    func waitingNote(for folder: String) -> @Sendable () -> Void {
        let console = console
        return { try? console.printNote("odrpack: a build is using '\(folder)': waiting for it to finish\n") }
    }
}
