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
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
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
        let style: BuildProgress.Style
        switch progress {
        case .never: style = .none
        case .auto: style = console.stderrIsInteractive ? .bar : .none
        case .always: style = console.stderrIsInteractive ? .bar : .lines
        }
        let started = Date()
        let lock: OutputLock
        do {
            lock = try OutputLock(folder: options.outputPath, wait: !noWait) {
                try? console.printError("odrpack: another build is using '\(output)': waiting for it to finish (--no-wait fails instead)\n")
            }
        } catch {
            try console.printError("odrpack: error: \(error)\n")
            throw ExitCode(2)
        }
        defer { withExtendedLifetime(lock) {} }
        let check = UpToDateCheck(manifestPath: manifest, options: options)
        var scanned: FileTree?
        switch check.run() {
        case let .upToDate(replay):
            if !json {
                try console.printDiagnostics(replay.diagnostics)
                try console.printOut(BuildReport.text(replay.summary(seconds: Date().timeIntervalSince(started)), outputDirectory: output))
                try gitHub.emit(replay.diagnostics, summary: "### odrpack build \(manifest)\n\nUp to date.\n\n" + MarkdownReport.problems(replay.diagnostics))
                return
            }
            if let document = replay.json() {
                try console.printOut(document)
                return
            }
        case let .changed(tree):
            scanned = tree
        }
        let builder = PackBuilder(options: options, progress: BuildProgress(style: style))
        let loader = PreviousBuildLoader(builder)
        let result: PlanResult
        do {
            result = try ProjectPlanner().plan(manifestPath: manifest, tree: scanned,
                                               alreadyChecked: { loader.previous.alreadyChecked($0) })
        } catch let error as ManifestLoader.ReadError {
            lock.removeFolderIfCreated()
            try console.printError("odrpack: error: \(error.description)\n")
            throw ExitCode(2)
        }
        guard let plan = result.plan, let resolution = result.resolution, !result.diagnostics.hasErrors else {
            lock.removeFolderIfCreated()
            if json {
                try console.printOut(JSONValue.object([("diagnostics", ManifestDocument.diagnostics(result.diagnostics))]).serialized())
            } else {
                try console.printDiagnostics(result.diagnostics)
                try console.printError("odrpack: nothing written: \(Console.countSummary(result.diagnostics))\n")
                try gitHub.emit(result.diagnostics, summary: MarkdownReport.plan(
                    result.resolution?.rootPath.isEmpty == false ? result.plan : nil, diagnostics: result.diagnostics,
                    title: "build \(manifest): nothing written"))
            }
            throw ExitCode(1)
        }
        if !json { try console.printDiagnostics(result.diagnostics) }
        let build: BuildResult
        do {
            build = try builder.build(plan, rootPath: resolution.rootPath, previous: loader.previous)
        } catch {
            try console.printError("odrpack: error: \(error)\n")
            throw ExitCode(2)
        }
        check.save(result, build: build)
        if json {
            var document = build.document
            document.append(("diagnostics", ManifestDocument.diagnostics(result.diagnostics)))
            document.append(("build", .object([
                ("written", .strings(build.written)), ("reused", .strings(build.reused)), ("removed", .strings(build.removed)),
            ])))
            try console.printOut(JSONValue.object(document).serialized())
        } else {
            try console.printOut(BuildReport.text(build.summary(seconds: Date().timeIntervalSince(started)), outputDirectory: output))
            try gitHub.emit(result.diagnostics, summary: MarkdownReport.plan(plan, diagnostics: result.diagnostics, title: "build \(manifest)"))
        }
    }
}

extension CompressionMode: ExpressibleByArgument {}
extension PackLayout: ExpressibleByArgument {}
