import ArgumentParser
import ODRPackCore
import ODRPackReport

/// `--progress`, on the commands whose work takes long (build, verify, thin, ipa, upload): one bar for all of them,
/// drawn by `ProgressBar` (docs/commands.md#conventions).
struct ProgressOptions: ParsableArguments {
    @Option(help: ArgumentHelp("auto (a bar on a terminal), always or never.", valueName: "when"))
    var progress: Console.ProgressMode = .auto

    /// The bar, or nothing, as `--progress`, the terminal and `--quiet` decide.
    func bar(_ console: Console, unit: String = "packs") -> ProgressBar {
        ProgressBar(style: console.progressStyle(progress), unit: unit, write: console.progressWriter)
    }
}

extension Console.ProgressMode: ExpressibleByArgument {}
