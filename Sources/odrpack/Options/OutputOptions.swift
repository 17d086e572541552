import ArgumentParser
import ODRPackPlatform
import ODRPackReport

/// `--quiet` and `--color`, on every command (docs/commands.md#conventions): its `console` is how a command talks.
struct OutputOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print only errors (and the --json document).")
    var quiet = false

    @Option(
        help: ArgumentHelp(
            "auto (on a terminal without NO_COLOR or TERM=dumb, or with CLICOLOR_FORCE=1 or FORCE_COLOR), always or never.",
            valueName: "when"))
    var color: Console.ColorMode = .auto

    /// The console of a run with these flags, its `environment` and its `streams`.
    func console(environment: [String: String], streams: CommandStreams) -> Console {
        Console(quiet: quiet, color: color, environment: environment, streams: streams)
    }
}

extension Console.ColorMode: ExpressibleByArgument {}
