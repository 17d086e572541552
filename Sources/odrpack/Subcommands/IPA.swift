import ArgumentParser
import Foundation
import ODRPackBuild
import ODRPackCore
import ODRPackPlatform
import ODRPackReport
import ODRPackStore

struct IPA: ODRPackCommand {
    static let configuration = CommandConfiguration(
        commandName: "ipa",
        abstract:
            """
            Package an On-Demand Resources app for the App Store: thin a copy of the app, sign it, and zip it with \
            every pack in Payload/OnDemandResources/.
            """
    )

    static let examples: [CommandHelp.Example] = [
        .init(
            what: "The App Store package of an app and its packs",
            command: "odrpack ipa MyGame.app build/odr --output MyGame.ipa"),
        .init(
            what: "Signing the app and its packs",
            command:
                "odrpack ipa MyGame.app build/odr --output MyGame.ipa --sign-command 'codesign -f -s \"$IDENTITY\" {}'"
        ),
    ]

    @Argument(help: "The built app: a NAME.app folder or an .ipa.", completion: .file())
    var app: String

    @Argument(help: "The odrpack build folder (an On-Demand Resources build).", completion: .directory)
    var buildDirectory: String

    @Option(name: [.short, .long], help: "The .ipa file to write.", completion: .file(extensions: ["ipa"]))
    var output: String

    @Option(help: "A command run once on the thinned app, {} replaced by its quoted path (e.g. codesign).")
    var signCommand: String?

    @Option(help: "The folder inside the app that the packs' paths are relative to.")
    var resourcesPath: String?

    @Option(help: InputRoot.optionHelp, completion: .directory)
    var inputRoot: String?

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    @OptionGroup var gate: WarningsGate

    @OptionGroup var gitHub: GitHubOptions

    @OptionGroup var outputOptions: OutputOptions

    @OptionGroup var progress: ProgressOptions

    var shared: SharedOptions {
        SharedOptions(output: outputOptions, json: json, gate: gate, gitHub: gitHub, progress: progress)
    }

    var interruptedOutcome: String { "the .ipa is as it was, or written whole; the app and the build are unchanged" }

    func validate() throws {
        try gitHub.check(json: json)
        if output.isEmpty { throw ValidationError("--output is empty: name the .ipa file to write") }
        // Two documents on one stream (docs/store.md#ipa): the IPA, and the JSON or the workflow commands.
        if json || gitHub.github, OutputTarget.isStandardOutput(output, streams: CommandState.parsing.streams) {
            throw ValidationError(
                """
                --output \(output) and --\(json ? "json" : "github") both print on standard output: name an .ipa file \
                instead of \(output)
                """
            )
        }
    }

    func run(_ context: CommandContext) throws {
        let console = context.console
        let app = PathArgument.shown(self.app)
        var options = IPABuilder.Options(
            appPath: PathArgument.path(self.app), buildPath: PathArgument.path(buildDirectory),
            outputPath: PathArgument.path(output), streams: context.streams)
        options.signCommand = signCommand
        options.resourcesPath = resourcesPath
        options.inputRoot = try inputRoot.map(InputRoot.init)
        options.warningsAsErrors = context.warningsAsErrors
        options.entryTime = try BuildOptions.entryTime(environment: context.environment)
        var builder = IPABuilder(options: options)
        builder.progress = context.progressBar()
        let result = try builder.run(onWait: context.waitingNote(for: PathArgument.shown(buildDirectory)))
        if let report = result.verifyReport {
            if !json { try console.printDiagnostics(report.allDiagnostics) }
            try console.printError(
                "odrpack: error: the packs in '\(PathArgument.shown(buildDirectory))' do not match their manifest: build again; no IPA written\n"
            )
            if json { try console.printJSON(IPAReport.json(result)) }
            throw ExitCode(1)
        }
        if json {
            try console.printJSON(IPAReport.json(result))
        } else {
            try console.printDiagnostics(result.diagnostics)
            if result.diagnostics.stopsWriting(warningsAsErrors: context.warningsAsErrors) {
                try console.printError("odrpack: no IPA written: \(Console.countSummary(result.diagnostics))\n")
            } else {
                try console.printWrote(
                    IPAReport.summary(result),
                    toStandardOutput: OutputTarget.isStandardOutput(output, streams: context.streams))
            }
        }
        try context.emitGitHub(
            result.diagnostics, summary: "### odrpack ipa \(app)\n\n" + MarkdownReport.problems(result.diagnostics))
        try context.exitOnFailure(result.diagnostics)
    }
}
