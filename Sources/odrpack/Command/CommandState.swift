import Foundation
import ODRPackPlatform

/// What one run of odrpack gets from where it runs, as SwiftPM's `SwiftCommandState` holds its commands' outside
/// world (docs/architecture.md#commands): the two output streams (and so whether each is a terminal), the environment,
/// and the folder the manifest search starts in. `main` runs with the process's; a test runs a command in-process with
/// its own (`ODRPack.run(arguments:state:)`), so two runs at once share no stream, variable or "document printed" fact.
struct CommandState: Sendable {
    /// The command's stdout and stderr.
    var streams: CommandStreams
    /// The variables the command reads (`NO_COLOR`, `ODRPACK_WARNINGS_AS_ERRORS`, `SOURCE_DATE_EPOCH`, `ASC_*`, ...).
    var environment: [String: String]
    /// Where the manifest search starts when no MANIFEST is given (docs/commands.md#scripts); nil: the process's
    /// current folder as the shell names it. The system opens a relative path on the command line from the process's
    /// folder, whatever this says: a run in-process names its files by absolute paths.
    var currentFolder: FilePath?
    /// The run is the process (`main`): it installs Ctrl-C's handler, which exits the process (exit 130).
    var ownsProcess: Bool

    /// The process's streams, environment and folder.
    static func process() -> CommandState {
        CommandState(
            streams: .process(), environment: ProcessInfo.processInfo.environment, currentFolder: nil,
            ownsProcess: true)
    }

    /// A run in-process: output kept in memory, the environment given, the search from `currentFolder`.
    static func captured(
        environment: [String: String], currentFolder: FilePath?, stdoutIsTerminal: Bool = false,
        stderrIsTerminal: Bool = false
    ) -> (state: CommandState, output: CapturedOutput, error: CapturedOutput) {
        let output = CapturedOutput(isTerminal: stdoutIsTerminal)
        let error = CapturedOutput(isTerminal: stderrIsTerminal)
        let state = CommandState(
            streams: CommandStreams(output: output, error: error), environment: environment,
            currentFolder: currentFolder, ownsProcess: false)
        return (state, output, error)
    }

    /// The run's state while ArgumentParser parses: a command's `validate()` takes no arguments, so what it reads of
    /// the outside world (the gate's variable, whether `--output` is stdout) it reads here, scoped to the task that
    /// runs `ODRPack.run(arguments:state:)`, never from the process.
    @TaskLocal static var parsing: CommandState = .process()
}
