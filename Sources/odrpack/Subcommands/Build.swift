import ArgumentParser
import Foundation
import ODRPackKit

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate, then write every pack as an archive plus odrpack-manifest.json and Apple's plists.")

    @Argument(help: "The tag manifest.")
    var manifest = "odrpack.yml"

    @Option(name: .shortAndLong, help: "The folder to write.")
    var output: String

    @Option(help: "zip (streaming archives, the default) or folder (pack folders, as an IPA holds them).")
    var layout: PackLayout = .zip

    @Option(help: "Run on every written pack's folder form through /bin/sh -c, with {} replaced by its quoted path.")
    var signCommand: String?

    @Option(help: "auto (deflate only what shrinks), store or deflate.")
    var compression: CompressionMode = .auto

    @Option(help: "Deflate level, 0-9.")
    var level = 6

    @Option(help: "Packs written at once (default: the number of cores).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Where the packs will be hosted: writes AssetPackManifest.plist with URLs under it.")
    var urlPrefix: String?

    @Flag(help: "Rebuild every pack, ignoring what the last build into this folder learned.")
    var noCache = false

    @Flag(help: "Fail at once (exit 2) when another build is writing the output folder, instead of waiting.")
    var noWait = false

    @Option(help: "auto (a bar on a terminal), always or never.")
    var progress: ProgressMode = .auto

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    @OptionGroup var gitHub: GitHubOptions

    enum ProgressMode: String, ExpressibleByArgument, CaseIterable { case auto, always, never }

    func validate() throws {
        try gitHub.check(json: json)
        guard (0...9).contains(level) else { throw ValidationError("--level must be 0 to 9, not \(level)") }
        guard (1...BuildOptions.maximumJobs).contains(jobs) else {
            throw ValidationError("--jobs must be 1 to \(BuildOptions.maximumJobs), not \(jobs)")
        }
    }

    func run() throws {
        let console = Console()
        var options = BuildOptions(outputDirectory: output)
        options.layout = layout
        options.signCommand = signCommand
        options.compression = compression
        options.level = level
        options.jobs = jobs
        options.urlPrefix = urlPrefix
        options.useCache = !noCache
        do {
            options.entryTime = try BuildOptions.entryTime(environment: ProcessInfo.processInfo.environment)
        } catch {
            try console.printError("odrpack: error: \(error)\n")
            throw ExitCode(64)
        }
        var pipeline = BuildPipeline(manifestPath: manifest, options: options)
        pipeline.waitForLock = !noWait
        pipeline.json = json
        switch progress {
        case .never: pipeline.progress = BuildProgress(style: .none)
        case .auto: pipeline.progress = BuildProgress(style: console.stderrIsInteractive ? .bar : .none)
        case .always: pipeline.progress = BuildProgress(style: console.stderrIsInteractive ? .bar : .lines)
        }
        let started = Date()
        let outcome = try pipeline.run {
            try? console.printError("odrpack: another build is using '\(output)': waiting for it to finish (--no-wait fails instead)\n")
        }
        if json {
            try console.printOut(outcome.jsonDocument)
        } else {
            try console.printDiagnostics(outcome.diagnostics)
            if let summary = outcome.summary(seconds: Date().timeIntervalSince(started)) {
                try console.printOut(BuildReport.text(summary, outputDirectory: output))
            } else {
                try console.printError("odrpack: nothing written: \(Console.countSummary(outcome.diagnostics))\n")
            }
            try gitHub.emit(outcome.diagnostics, summary: MarkdownReport.build(outcome, manifestPath: manifest))
        }
        if outcome.diagnostics.hasErrors { throw ExitCode(1) }
    }
}

extension CompressionMode: ExpressibleByArgument {}
extension PackLayout: ExpressibleByArgument {}
