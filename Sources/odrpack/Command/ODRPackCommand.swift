import ArgumentParser
import ODRPackPlatform
import ODRPackReport

/// A subcommand of odrpack, as SwiftPM's commands are `SwiftCommand`s: the command declares its options, its help
/// examples and what Ctrl-C leaves, and writes only `run(_:)`; `run(state:)` builds the `CommandContext` (the console,
/// `--json`, the warnings gate, `--github`, the progress bar, all on the run's `CommandState`) and installs the
/// interrupt message first, so a new command wires none of that itself and no two commands wire it differently.
protocol ODRPackCommand: ParsableCommand {
    /// The examples at the end of the command's `--help`, also the EXAMPLES of odrpack(1) (docs/odrpack.1).
    static var examples: [CommandHelp.Example] { get }

    /// The command's own option groups that every command shares the meaning of, for its context.
    var shared: SharedOptions { get }

    /// What Ctrl-C leaves as it was (exit 130), after `odrpack: error: interrupted: `; by default nothing changed.
    var interruptedOutcome: String { get }

    /// The command's work, talking through `context`.
    func run(_ context: CommandContext) throws
}

extension ODRPackCommand {
    var interruptedOutcome: String { "nothing was changed" }

    /// Ctrl-C's message from here on when the run is the process, then the command with its context.
    func run(state: CommandState) throws {
        if state.ownsProcess {
            Interrupt.install(message: TerminalText.escaped(CommandHelp.interrupted(self), keepingLineBreaks: true))
        }
        try run(CommandContext(shared, state: state))
    }

    /// ArgumentParser's entry, for completeness: `ODRPack.run(arguments:state:)` calls `run(state:)` itself.
    func run() throws { try run(state: CommandState.parsing) }
}
