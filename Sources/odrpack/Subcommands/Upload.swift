import ArgumentParser
import Foundation
import ODRPackCore
import ODRPackPlatform
import ODRPackReport
import ODRPackStore

struct Upload: ODRPackCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload a Background Assets build's Apple-hosted packs to App Store Connect.",
        // One BUILD_DIR, whatever the operands array that catches a second one for its message suggests.
        usage: "odrpack upload <build-dir> (--since <old> | --all) [<options>]",
        discussion: """
            Credentials: --key-id/ASC_KEY_ID, --issuer-id/ASC_ISSUER_ID (none for an individual key), and the key: \
            --private-key FILE, ASC_PRIVATE_KEY_PATH, ASC_PRIVATE_KEY (its PEM text) or AuthKey_<KEY_ID>.p8 in \
            ./private_keys, ~/private_keys, ~/.private_keys or ~/.appstoreconnect/private_keys. \
            The upload record BUILD_DIR/odrpack-upload.json lets a run after a failure continue where it stopped.
            """)

    static let examples: [CommandHelp.Example] = [
        .init(what: "What would be uploaded", command: "odrpack upload build/ba --since v1/build --dry-run"),
        .init(
            what: "Upload every pack and wait for processing", command: "odrpack upload build/ba --all --wait"),
    ]

    @Argument(
        help: ArgumentHelp(
            "The Background Assets build folder (or its odrpack-manifest.json).", valueName: "build-dir"),
        completion: .directory)
    var operands: [String] = []

    @Option(
        help: ArgumentHelp(
            "Upload the packs added or changed since this build (as diff lists them).", valueName: "old"),
        completion: .directory)
    var since: String?

    @Flag(help: "Upload every pack of the build.")
    var all = false

    @Option(
        help: ArgumentHelp(
            "The app's Apple ID in App Store Connect (default: ASC_APP_ID, else found by bundle id).",
            valueName: "apple-id"))
    var app: String?

    @Option(help: ArgumentHelp("The App Store Connect API key id (default: ASC_KEY_ID).", valueName: "id"))
    var keyID: String?

    @Option(
        help: ArgumentHelp(
            "The API key's issuer id (default: ASC_ISSUER_ID; none for an individual key).", valueName: "id"))
    var issuerID: String?

    @Option(
        help: ArgumentHelp(
            "The API key's .p8 file (default: ASC_PRIVATE_KEY_PATH, ASC_PRIVATE_KEY, altool's folders).",
            valueName: "file"),
        completion: .file(extensions: ["p8"]))
    var privateKey: String?

    @Flag(help: "Send GET requests only: show what App Store Connect has, what would be uploaded, and the quota.")
    var dryRun = false

    /// `--wait` alone waits the default; `--wait SECONDS` (the number right after it) that long.
    @Option(
        defaultAsFlag: UploadOptions.defaultWaitSeconds, parsing: .next,
        help: ArgumentHelp(
            "Wait until App Store Connect has processed each pack, at most this long.", valueName: "seconds"))
    var wait: Int?

    @Option(help: "Packs, and parts of a pack, sent at once.")
    var jobs = 4

    @Option(
        help: ArgumentHelp(
            "Another API base URL, for tests (default: ODRPACK_ASC_API, else Apple's).", valueName: "url"))
    var api: String?

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    @Flag(
        help:
            "Print each request on stderr as it is sent and answered: method, path, status, time, App Store Connect's errors."
    )
    var verbose = false

    @OptionGroup var gate: WarningsGate

    @OptionGroup var gitHub: GitHubOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var progress: ProgressOptions

    /// BUILD_DIR: the one operand.
    func buildDir() throws -> String {
        guard operands.count == 1 else {
            throw ValidationError(
                operands.isEmpty
                    ? "give the build folder: odrpack upload BUILD_DIR (--since OLD | --all)"
                    : "one build folder only, got \(operands.map { "'\($0)'" }.joined(separator: ", "))")
        }
        return try PathArgument.text(operands[0], "BUILD_DIR")
    }

    var shared: SharedOptions {
        SharedOptions(output: output, json: json, gate: gate, gitHub: gitHub, progress: progress)
    }

    var interruptedOutcome: String {
        "what reached App Store Connect stays there; run upload again to go on from there"
    }

    func validate() throws {
        try gitHub.check(json: json)
        _ = try buildDir()
        try Self.checkWaitValues(CommandLine.arguments)
        if let wait, wait < 0 { throw ValidationError("--wait SECONDS cannot be negative") }
        if since == nil && !all {
            throw ValidationError("say which packs: --since OLD (those diff lists under upload) or --all")
        }
        if since != nil && all { throw ValidationError("--since and --all cannot be used together: choose one") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run(_ context: CommandContext) throws {
        let console = context.console
        let buildDir = try buildDir()
        var options = UploadOptions(
            buildPath: buildDir, selection: try PathArgument.text(since, "--since").map { .since($0) } ?? .all,
            environment: context.environment)
        options.appID = app
        options.keyID = keyID
        options.issuerID = issuerID
        options.privateKeyPath = try PathArgument.text(privateKey, "--private-key")
        options.dryRun = dryRun
        options.warningsAsErrors = context.warningsAsErrors
        options.waitSeconds = wait
        options.jobs = jobs
        options.apiURL = api
        let progress = UploadProgress(bar: context.progressBar(), streams: context.streams)
        if verbose { options.verbose = { progress.note($0) } }
        var events = UploadEvents()
        events.waiting = context.waitingNote(for: buildDir)
        events.started = { progress.begin(packs: $0, bytes: $1) }
        events.sent = { progress.add($0) }
        let json = json
        let quiet = console.quiet
        events.finished = { pack in try? progress.finished(printing: json || quiet ? nil : UploadReport.line(pack)) }
        let outcome: UploadOutcome
        do {
            outcome = try BackgroundAssetsUpload.run(options, events: events)
        } catch let error as ODRPackError {
            progress.end()
            try? context.annotateFailure(error.description, command: "upload")
            throw error
        }
        progress.end()
        if json {
            try console.printJSON(UploadReport.json(outcome))
        } else {
            try console.printDiagnostics(outcome.diagnostics)
            try console.printOut(UploadReport.summary(outcome))
        }
        try context.reportFailures(outcome.failures, command: "upload")
        try context.emitGitHub(outcome.diagnostics, summary: "### odrpack upload\n\n" + UploadReport.summary(outcome))
        if !outcome.failures.isEmpty || outcome.diagnostics.hasErrors { throw ExitCode(1) }
        if try context.warningsFail(outcome.diagnostics) { throw ExitCode(1) }
    }

    /// `--wait=VALUE` takes whole seconds only: the parser reads `--wait=1.5` or `--wait=nan` as `--wait` alone (the
    /// default 1800 s), so such a value is refused here (exit 64) instead of being silently replaced.
    static func checkWaitValues(_ arguments: [String]) throws {
        for argument in arguments.dropFirst() {
            if argument == "--" { return }
            guard argument.hasPrefix("--wait=") else { continue }
            let value = argument.dropFirst("--wait=".count)
            guard !value.isEmpty, value.utf8.count <= 9, value.utf8.allSatisfy({ (48...57).contains($0) }) else {
                throw ValidationError(
                    "--wait takes whole seconds (e.g. --wait=600), not '\(TerminalText.escaped(value))'")
            }
        }
    }

}
