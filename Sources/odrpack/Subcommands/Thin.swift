import ArgumentParser
import Foundation
import ODRPackCore
import ODRPackPlatform
import ODRPackReport
import ODRPackThin

struct Thin: ODRPackCommand {
    static let configuration = CommandConfiguration(
        commandName: "thin",
        abstract:
            """
            Make a built app an On-Demand Resources app: remove its copies of packed files and install the build's \
            plists.
            """
    )

    static let examples: [CommandHelp.Example] = [
        .init(what: "Move the packed files out of a built app", command: "odrpack thin MyGame.app build/odr"),
        .init(
            what: "Embed the packs too, for the Simulator", command: "odrpack thin MyGame.app build/odr --embed"),
        .init(
            what: "An engine that keeps its data in a subfolder",
            command: "odrpack thin MyGame.app build/odr --resources-path Data/Raw"),
    ]

    @Argument(help: "The built app bundle (MyGame.app).", completion: .directory)
    var app: String

    @Argument(help: "The odrpack build folder.", completion: .directory)
    var buildDirectory: String

    @Flag(help: "Also embed every pack in APP/OnDemandResources/ as a folder, with relative URLs (Simulator, testing).")
    var embed = false

    @Option(help: "The folder inside the app that the packs' paths are relative to.", completion: .directory)
    var resourcesPath: String?

    @Option(
        help:
            """
            Background Assets builds: the App Group id the app and its downloader extension share (BAAppGroupID), over \
            the manifest's app-group.
            """
    )
    var appGroup: String?

    @Flag(help: "Print what thin would remove and install, and change nothing.")
    var dryRun = false

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    @OptionGroup var gate: WarningsGate

    @OptionGroup var gitHub: GitHubOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var progress: ProgressOptions

    var shared: SharedOptions {
        SharedOptions(output: output, json: json, gate: gate, gitHub: gitHub, progress: progress)
    }

    var interruptedOutcome: String {
        "the build folder is unchanged; run thin again to finish '\(PathArgument.shown(app))' (two runs end as one does)"
    }

    func validate() throws { try gitHub.check(json: json) }

    func run(_ context: CommandContext) throws {
        let console = context.console
        let app = PathArgument.shown(self.app)
        var options = AppThinner.Options(
            appPath: PathArgument.path(self.app), buildPath: try PathArgument.text(buildDirectory, "BUILD_DIR"))
        options.embed = embed
        options.resourcesPath = resourcesPath
        options.appGroup = appGroup
        options.dryRun = dryRun
        options.warningsAsErrors = context.warningsAsErrors
        var thinner = AppThinner(options: options)
        thinner.progress = context.progressBar()
        let result = try thinner.run(onWait: context.waitingNote(for: buildDirectory))
        if json {
            try console.printJSON { try ThinReport.writeJSON(result, to: &$0) }
        } else {
            try console.printDiagnostics(result.diagnostics)
            if result.diagnostics.stopsWriting(warningsAsErrors: context.warningsAsErrors) {
                try console.printError("odrpack: the app is unchanged: \(Console.countSummary(result.diagnostics))\n")
            } else if dryRun {
                try Self.dryRunText(result, app: app) { try console.printOut($0) }
            } else if result.unchanged {
                try console.printOut(
                    "Nothing changed: \(TerminalText.escaped(app)) was already thinned with this build\n")
            } else {
                var text =
                    "Thinned \(app): removed \(result.removed.count) file\(result.removed.count == 1 ? "" : "s") "
                text +=
                    "(\(ByteCount.format(result.removedBytes))); installed \(result.installed.joined(separator: ", "))"
                if !result.infoPlistKeys.isEmpty {
                    text += "; set \(result.infoPlistKeys.joined(separator: ", ")) in Info.plist"
                }
                if embed {
                    text +=
                        """
                        ; embedded \(result.embedded.count) pack\(result.embedded.count == 1 ? "" : "s") in \
                        OnDemandResources/
                        """
                }
                try console.printOut(text + "\n")
            }
        }
        try context.emitGitHub(
            result.diagnostics, summary: "### odrpack thin \(app)\n\n" + MarkdownReport.problems(result.diagnostics))
        try context.exitOnFailure(result.diagnostics)
    }

    /// `--dry-run`: each file thin would remove, then what it would install and embed, handed to `emit` 64 KB at a
    /// time (a million removed files make tens of MB of text, never held whole).
    static func dryRunText(_ result: AppThinner.Result, app: String, emit: (String) throws -> Void) rethrows {
        var text = ""
        for path in result.removed {
            text += "remove  \(TerminalText.escaped(path))\n"
            if text.utf8.count >= 1 << 16 {
                try emit(text)
                text = ""
            }
        }
        for name in result.installed { text += "install \(name)\n" }
        for name in result.embedded { text += "embed   OnDemandResources/\(name)\n" }
        for key in result.infoPlistKeys { text += "set     \(key) in Info.plist\n" }
        let files = "\(result.removed.count) file\(result.removed.count == 1 ? "" : "s")"
        try emit(
            text
                + "Dry run: thin would remove \(files) (\(ByteCount.format(result.removedBytes))) from \(app); nothing changed\n"
        )
    }
}
