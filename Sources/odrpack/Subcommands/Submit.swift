import ArgumentParser
import Foundation
import ODRPackCore
import ODRPackPlatform
import ODRPackReport
import ODRPackStore

struct Submit: ODRPackCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit",
        abstract: "Submit a Background Assets build's uploaded pack versions to App Review.",
        // One BUILD_DIR, whatever the operands array that catches a second one for its message suggests.
        usage: "odrpack submit <build-dir> [--platform <platform>] [--dry-run] [--wait [<seconds>]] [<options>]",
        discussion: """
            Submits the versions the upload record (BUILD_DIR/odrpack-upload.json) shows uploaded: one review \
            submission per platform (an open one is reused), each version added once, then submitted. Credentials, \
            --app and --api as for upload. A run after a failure or a kill sends nothing twice.
            """)

    static let examples: [CommandHelp.Example] = [
        .init(what: "What would be submitted", command: "odrpack submit build/ba --dry-run"),
        .init(what: "Submit and wait for App Review's decision", command: "odrpack submit build/ba --wait"),
        .init(what: "Submit the tvOS packs only", command: "odrpack submit build/ba --platform tvOS"),
    ]

    @Argument(
        help: ArgumentHelp(
            "The Background Assets build folder (or its odrpack-manifest.json).", valueName: "build-dir"),
        completion: .directory)
    var operands: [String] = []

    @Option(
        help: ArgumentHelp(
            "Submit for this platform only (iOS, macOS, tvOS, visionOS; default: every platform of the build).",
            valueName: "platform"))
    var platform: String?

    @Flag(help: "Send GET requests only: show what would be submitted.")
    var dryRun = false

    /// `--wait` alone waits the default; `--wait SECONDS` (the number right after it) that long.
    @Option(
        defaultAsFlag: UploadOptions.defaultWaitSeconds, parsing: .next,
        help: ArgumentHelp("Wait for App Review's decision, at most this long.", valueName: "seconds"))
    var wait: Int?

    @OptionGroup var connection: StoreConnectionOptions

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    @OptionGroup var gate: WarningsGate

    @OptionGroup var gitHub: GitHubOptions

    @OptionGroup var output: OutputOptions

    var shared: SharedOptions { SharedOptions(output: output, json: json, gate: gate, gitHub: gitHub) }

    var interruptedOutcome: String {
        "what reached App Store Connect stays there, and the upload record says so; run submit again to go on"
    }

    func validate() throws {
        try gitHub.check(json: json)
        _ = try connection.buildDir(operands, command: "submit")
        if let wait, wait < 0 { throw ValidationError("--wait SECONDS cannot be negative") }
    }

    func run(_ context: CommandContext) throws {
        let console = context.console
        let buildDir = try connection.buildDir(operands, command: "submit")
        var options = connection.storeOptions(buildDir: buildDir, context: context)
        options.platform = platform
        options.dryRun = dryRun
        options.waitSeconds = wait
        var events = UploadEvents()
        events.waiting = context.waitingNote(for: buildDir)
        let outcome: SubmitOutcome
        do {
            outcome = try ReviewSubmit.run(options, events: events)
        } catch let error as ODRPackError {
            try? context.annotateFailure(error.description, command: "submit")
            throw error
        }
        if json {
            try console.printJSON(SubmitReport.json(outcome))
        } else {
            try console.printDiagnostics(outcome.diagnostics)
            if !outcome.stopped { try console.printOut(SubmitReport.text(outcome)) }
        }
        try context.reportFailures(outcome.failures, command: "submit")
        try context.emitGitHub(outcome.diagnostics, summary: "### odrpack submit\n\n" + SubmitReport.text(outcome))
        if outcome.stopped { throw ExitCode(2) }
        if !outcome.failures.isEmpty || outcome.diagnostics.hasErrors { throw ExitCode(1) }
        if try context.warningsFail(outcome.diagnostics) { throw ExitCode(1) }
    }
}
