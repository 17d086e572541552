import ArgumentParser
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform
import ODRPackReport

struct Report: ODRPackCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract:
            "Write one self-contained HTML page: a treemap of the packs, gauges for every limit, tables and problems.")

    static let examples: [CommandHelp.Example] = [
        .init(what: "odrpack-report.html for ./odrpack.yml", command: "odrpack report"),
        .init(what: "What a build's packs download and install", command: "odrpack report build/odr -o build.html"),
        .init(
            what: "Against the tvOS limits, into build/",
            command: "odrpack report --profile tvos --output build/report.html"),
    ]

    @Argument(
        help: """
            The tag manifest (default: odrpack.yml here or in a parent folder, up to the repository's root), or a \
            build folder (or its odrpack-manifest.json) for the page of what was built.
            """,
        completion: .file())
    var manifest: String?

    @Option(
        help: "Limit profile: default, ios, ios18, tvos or background-assets (overrides the manifest's).",
        completion: .list(LimitProfile.names))
    var profile: String?

    @Option(help: "odr (the default) or background-assets: which packs and limits the page shows.")
    var format: PackFormat = .odr

    @Option(help: ApplePlatform.optionHelp)
    var platform: ApplePlatform?

    @Option(
        name: .shortAndLong, help: "The HTML file to write (- for standard output).",
        completion: .file(extensions: ["html"]))
    var output = "odrpack-report.html"

    @OptionGroup var outputOptions: OutputOptions

    var shared: SharedOptions { SharedOptions(output: outputOptions) }

    var interruptedOutcome: String { "'\(output)' is as it was, or written whole" }

    func validate() throws {
        do { try LimitProfile.check(commandLineName: profile) } catch { throw ValidationError("\(error)") }
        try ApplePlatform.check(platform, format: format)
        if output.isEmpty {
            throw ValidationError("--output is empty (an unset variable?): name the HTML file to write")
        }
    }

    /// The argument names a build (a folder holding odrpack-manifest.json, or a `.json` file): the page of what was
    /// built rather than of what a manifest plans.
    static func namesBuild(_ path: String?) -> Bool {
        guard let path else { return false }
        let given = PathArgument.path(path)
        if SystemCall.status(given, followingLinks: true)?.kind == .directory {
            return SystemCall.status(given.joined(BuildManifest.fileName), followingLinks: true) != nil
        }
        return path.hasSuffix(".json")
    }

    func run(_ context: CommandContext) throws {
        let console = context.console
        if Self.namesBuild(manifest), let manifest {
            return try reportBuild(
                manifest, console: console, onWait: context.waitingNote(for: PathArgument.shown(manifest)))
        }
        let manifest = try context.manifestPath(given: PathArgument.text(manifest, "MANIFEST"))
        let result = try ProjectPlanner().plan(
            manifestPath: manifest, profile: profile, format: format, platform: platform)
        try console.printDiagnostics(result.diagnostics)
        guard let plan = result.readablePlan else {
            try console.error("no report: the manifest cannot be planned (\(Console.countSummary(result.diagnostics)))")
            throw ExitCode(1)
        }
        let target = try OutputTarget(PathArgument.path(output), streams: context.streams)
        try target.refuseInputs([FilePath(manifest)], of: "report")
        try HTMLFile.write(
            ReportModel(plan: plan, diagnostics: result.diagnostics, manifestPath: manifest).html, to: target)
        try printWrote(
            """
            \(Self.count(plan.packs.count, "pack")), \(Self.count(plan.resourceFiles, "file")), \
            \(Console.countSummary(result.diagnostics, allowed: result.allowed))
            """, target: target, console: console)
        if result.diagnostics.hasErrors { throw ExitCode(1) }
    }

    /// `odrpack report BUILD_DIR`: the page of a build, with what devices download beside what they install.
    /// The build is read under its folder's shared lock (`BuildFolderSession`), as verify reads it: never half made.
    func reportBuild(_ path: String, console: Console, onWait: () -> Void) throws {
        if profile != nil || format != .odr {
            throw ODRPackError.usage(
                "--profile and --format are for a manifest: a build's page shows the build as it was made")
        }
        let build = try BuildFolderSession.reading(PathArgument.path(path), keepingSources: false, onWait: onWait) {
            try $0.manifest()
        }
        let target = try OutputTarget(PathArgument.path(output), streams: console.streams)
        try target.refuseInputs([PathArgument.path(path)], of: "report")
        let model = ReportModel(
            build: build, manifestPath: PathArgument.shown(path), archives: Diff.holdsArchives(path, manifest: build))
        try HTMLFile.write(model.html, to: target)
        let files = build.packs.reduce(0) { $0 + $1.files.count }
        try printWrote(
            "\(Self.count(build.packs.count, "pack")), \(Self.count(files, "file")) (a build)", target: target,
            console: console)
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// `Wrote FILE: …`; for `-`, whose page is stdout, the figures alone on stderr, without a `Wrote -`
    /// (docs/commands.md#scripts).
    func printWrote(_ summary: String, target: OutputTarget, console: Console) throws {
        if output == "-" {
            try console.printNote("\(summary)\n")
        } else {
            try console.printWrote(
                "Wrote \(PathArgument.shown(output)): \(summary)\n", toStandardOutput: target.isStandardOutput)
        }
    }
}
