import ArgumentParser
import Foundation
import ODRPackCore
import ODRPackPlatform
import ODRPackReport
import ODRPackStore

struct Status: ODRPackCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show where each pack of a Background Assets build stands in App Store Connect.",
        // One BUILD_DIR, whatever the operands array that catches a second one for its message suggests.
        usage: "odrpack status <build-dir> [--until <state>] [--timeout <seconds>] [<options>]",
        discussion: """
            GET requests only. Per pack: its version (the upload record's, else the latest), state, internal beta and \
            App Store release states, locale and platforms, and whether its archive is this build's. Exit 0 when every \
            pack's version is current and none is FAILED or REJECTED, else 1. Credentials, --app and --api as for upload.
            """)

    static let examples: [CommandHelp.Example] = [
        .init(what: "Where each pack stands", command: "odrpack status build/ba"),
        .init(
            what: "In CI: wait until every pack is approved, at most an hour",
            command: "odrpack status build/ba --until approved --timeout 3600"),
    ]

    @Argument(
        help: ArgumentHelp(
            "The Background Assets build folder (or its odrpack-manifest.json).", valueName: "build-dir"),
        completion: .directory)
    var operands: [String] = []

    @Option(
        help: ArgumentHelp(
            "Poll until every pack is complete (processed), testable (internal beta) or approved (App Store).",
            valueName: "state"))
    var until: StoreOptions.Until?

    @Option(help: ArgumentHelp("How long --until polls at most (default 1800).", valueName: "seconds"))
    var timeout: Int = UploadOptions.defaultWaitSeconds

    @OptionGroup var connection: StoreConnectionOptions

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    @OptionGroup var gate: WarningsGate

    @OptionGroup var gitHub: GitHubOptions

    @OptionGroup var output: OutputOptions

    var shared: SharedOptions { SharedOptions(output: output, json: json, gate: gate, gitHub: gitHub) }

    func validate() throws {
        try gitHub.check(json: json)
        _ = try connection.buildDir(operands, command: "status")
        if timeout < 0 { throw ValidationError("--timeout SECONDS cannot be negative") }
    }

    func run(_ context: CommandContext) throws {
        let console = context.console
        let buildDir = try connection.buildDir(operands, command: "status")
        var options = connection.storeOptions(buildDir: buildDir, context: context)
        options.until = until
        options.timeoutSeconds = timeout
        var events = UploadEvents()
        events.waiting = context.waitingNote(for: buildDir)
        let outcome: StatusOutcome
        do {
            outcome = try StoreStatus.run(options, events: events)
        } catch let error as ODRPackError {
            try? context.annotateFailure(error.description, command: "status")
            throw error
        }
        if json {
            try console.printJSON(StatusReport.json(outcome))
        } else {
            try console.printDiagnostics(outcome.diagnostics)
            try console.printOut(StatusReport.table(outcome))
        }
        try context.reportFailures(outcome.failures, command: "status")
        try context.emitGitHub(outcome.diagnostics, summary: "### odrpack status\n\n" + StatusReport.table(outcome))
        if !outcome.passed { throw ExitCode(1) }
        if try context.warningsFail(outcome.diagnostics) { throw ExitCode(1) }
    }
}

extension StoreOptions.Until: ExpressibleByArgument {}
