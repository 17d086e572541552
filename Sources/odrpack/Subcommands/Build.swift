import ArgumentParser
import Foundation
import ODRPackBuild
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform
import ODRPackReport

struct Build: ODRPackCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Validate, then write every pack as an archive plus odrpack-manifest.json and Apple's plists.")

    static let examples: [CommandHelp.Example] = [
        .init(what: "Write every pack into build/odr", command: "odrpack build --output build/odr"),
        .init(
            what: "Pack folders, signed, for an IPA",
            command: "odrpack build -o build/odr --layout folder --sign-command 'codesign -s \"$IDENTITY\" {}'"),
        .init(
            what: "Background Assets packs", command: "odrpack build --format background-assets -o build/ba"),
    ]

    @Argument(
        help: "The tag manifest (default: odrpack.yml here or in a parent folder, up to the repository's root).",
        completion: .file())
    var manifest: String?

    @Option(name: .shortAndLong, help: "The folder to write.", completion: .directory)
    var output: String

    @Option(
        help: "odr (On-Demand Resources packs, the default) or background-assets (packs made by Apple's ba-package).")
    var format: PackFormat = .odr

    @Option(help: ApplePlatform.optionHelp)
    var platform: ApplePlatform?

    @Option(
        help:
            """
            Background Assets only: the packager, run through /bin/sh -c from resources-root with {manifest} and \
            {output} replaced by quoted paths (default: ba-package, else xcrun ba-package, from PATH).
            """
    )
    var baPackage: String?

    @Option(
        help:
            """
            Background Assets, hosting self: the download-manifest.json that is live on the server, the source of \
            versions and of what site/ must hold.
            """,
        completion: .file(extensions: ["json"])
    )
    var published: String?

    @Flag(help: "Background Assets only: start every pack at version 0, whatever the output folder holds.")
    var resetVersions = false

    @Option(help: "zip (streaming archives, the default) or folder (pack folders, as an IPA holds them).")
    var layout: PackLayout?

    @Option(help: "Run on every written pack's folder form through /bin/sh -c, with {} replaced by its quoted path.")
    var signCommand: String?

    @Option(help: "auto (deflate only what shrinks, the default), store or deflate.")
    var compression: CompressionMode?

    @Option(help: "Deflate level, 0-9 (default \(BuildOptions.defaultLevel)).")
    var level: Int?

    @Option(help: "Packs written at once (default: the number of cores, at most \(BuildOptions.maximumJobs)).")
    var jobs: Int?

    @Option(help: "Where the packs will be hosted: writes AssetPackManifest.plist with URLs under it.")
    var urlPrefix: String?

    @Option(
        help: ArgumentHelp(
            """
            Write AssetPackManifestTemplate.plist's URLs as if the build folder were this absolute path, not the \
            folder written (a build whose bytes do not depend on where it runs, e.g. in Bazel).
            """,
            valueName: "absolute-path"),
        completion: .directory)
    var templatePath: String?

    @Option(help: InputRoot.optionHelp, completion: .directory)
    var inputRoot: String?

    @Flag(help: "Rebuild every pack, ignoring what the last build into this folder learned.")
    var noCache = false

    @Flag(help: "Fail at once (exit 2) when another build is writing the output folder, instead of waiting.")
    var noWait = false

    @OptionGroup var progress: ProgressOptions

    @Flag(help: "End with a table of the packs: tags, files, installed and archive bytes, written or unchanged.")
    var summary = false

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    @OptionGroup var gate: WarningsGate

    @OptionGroup var gitHub: GitHubOptions

    @OptionGroup var outputOptions: OutputOptions

    var shared: SharedOptions {
        SharedOptions(output: outputOptions, json: json, gate: gate, gitHub: gitHub, progress: progress)
    }

    var interruptedOutcome: String {
        "'\(PathArgument.shown(output))' holds the previous build, or an unfinished one that the next build into it recovers"
    }

    func validate() throws {
        try gitHub.check(json: json)
        if let urlPrefix, let problem = URLPrefix.problem(urlPrefix) { throw ValidationError(problem) }
        if let templatePath {
            if let problem = BuildOptions.templatePathProblem(templatePath) { throw ValidationError(problem) }
            if urlPrefix != nil {
                throw ValidationError(
                    "--template-path does not apply with --url-prefix: AssetPackManifest.plist's URLs are under the prefix"
                )
            }
            if format == .backgroundAssets {
                throw ValidationError(
                    "--template-path does not apply to --format background-assets: it writes no AssetPackManifestTemplate.plist"
                )
            }
        }
        if let level, !(0...9).contains(level) { throw ValidationError("--level must be 0 to 9, not \(level)") }
        try ApplePlatform.check(platform, format: format)
        if let jobs, !(1...BuildOptions.maximumJobs).contains(jobs) {
            throw ValidationError("--jobs must be 1 to \(BuildOptions.maximumJobs), not \(jobs)")
        }
        if format == .backgroundAssets {
            let odrOnly = [
                ("--layout", layout != nil), ("--compression", compression != nil), ("--level", level != nil),
                ("--sign-command", signCommand != nil),
            ].filter(\.1).map(\.0)
            if !odrOnly.isEmpty {
                throw ValidationError(
                    """
                    \(odrOnly.joined(separator: ", ")) \(odrOnly.count == 1 ? "does" : "do") not apply to --format \
                    background-assets: Apple's ba-package decides how a pack is stored; leave \
                    \(odrOnly.count == 1 ? "it" : "them") out
                    """
                )
            }
        } else {
            let backgroundAssetsOnly = [
                ("--ba-package", baPackage != nil), ("--published", published != nil),
                ("--reset-versions", resetVersions),
            ].filter(\.1).map(\.0)
            if !backgroundAssetsOnly.isEmpty {
                throw ValidationError(
                    """
                    \(backgroundAssetsOnly.joined(separator: ", ")) \
                    \(backgroundAssetsOnly.count == 1 ? "applies" : "apply") only to --format background-assets
                    """
                )
            }
        }
    }

    func run(_ context: CommandContext) throws {
        // An unset variable (`-o "$OUT"`) must never become a build into the current folder.
        guard !output.isEmpty else {
            throw ODRPackError.usage(
                "--output is empty (an unset variable?): give the folder to write, e.g. --output build/odr")
        }
        let console = context.console
        let output = PathArgument.shown(self.output)
        var options = BuildOptions(
            outputFolder: PathArgument.path(self.output), shownAs: output, format: format,
            environment: context.environment)
        options.platform = platform
        options.backgroundAssetsPackager = try PathArgument.text(baPackage, "--ba-package")
        options.publishedPath = try PathArgument.text(published, "--published")
        options.resetVersions = resetVersions
        options.layout = layout ?? .zip
        options.signCommand = signCommand
        options.compression = compression ?? .auto
        options.level = level ?? BuildOptions.defaultLevel
        options.jobs = jobs ?? BuildOptions.defaultJobs
        options.urlPrefix = urlPrefix
        options.templatePath = templatePath
        options.inputRoot = try inputRoot.map(InputRoot.init)
        options.useCache = !noCache
        options.warningsAsErrors = context.warningsAsErrors
        options.entryTime = try BuildOptions.entryTime(environment: context.environment)
        let manifest = try context.manifestPath(given: manifest)
        var pipeline = BuildPipeline(manifestPath: manifest, options: options)
        pipeline.waitForLock = !noWait
        pipeline.json = json
        pipeline.progress = context.buildProgress()
        let started = Date()
        let outcome = try pipeline.run {
            try? console.printNote(
                "odrpack: another build is using '\(output)': waiting for it to finish (--no-wait fails instead)\n")
        }
        if case .built(_, let build) = outcome, let warning = build.stateWarning {
            try console.warning(warning)
        }
        if json {
            try console.printJSON { try BuildReport.writeJSON(outcome, to: &$0) }
        } else {
            try console.printDiagnostics(outcome.diagnostics)
            if let summary = outcome.summary(seconds: Date().timeIntervalSince(started)) {
                try console.printOut(BuildReport.text(summary, outputDirectory: output, layout: options.layout))
                if !outcome.allowed.isEmpty {
                    try console.printNote(Console.countSummary(outcome.diagnostics, allowed: outcome.allowed) + "\n")
                }
                if self.summary { try printPackTable(outcome, layout: options.layout, console: console) }
            } else {
                try console.printError(
                    "odrpack: nothing written: \(Console.countSummary(outcome.diagnostics, allowed: outcome.allowed))\n"
                )
            }
            try context.emitGitHub(
                outcome.diagnostics, summary: MarkdownReport.build(outcome, manifestPath: manifest))
        }
        try context.exitOnFailure(outcome.diagnostics)
    }
}

extension Build {
    /// `--summary`: the packs of the build folder's odrpack-manifest.json as it now stands.
    func printPackTable(_ outcome: BuildOutcome, layout: PackLayout, console: Console) throws {
        var written: Set<String> = []
        if case .built(_, let build) = outcome { written = Set(build.written) }
        let manifest = try BuildManifest.load(PathArgument.path(output), keepingSources: false).manifest
        try console.printOut(BuildReport.packTable(manifest, written: written, layout: layout))
    }
}

extension CompressionMode: ExpressibleByArgument {}
extension PackFormat: ExpressibleByArgument {}
extension PackLayout: ExpressibleByArgument {}
