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
        .init(
            what: "Against the tvOS limits, into build/",
            command: "odrpack report --profile tvos --output build/report.html"),
    ]

    @Argument(
        help: "The tag manifest (default: odrpack.yml here or in a parent folder, up to the repository's root).",
        completion: .file())
    var manifest: String?

    @Option(
        help: "Limit profile: default, ios, ios18, tvos or background-assets (overrides the manifest's).",
        completion: .list(LimitProfile.names))
    var profile: String?

    @Option(help: "odr (the default) or background-assets: which packs and limits the page shows.")
    var format: PackFormat = .odr

    @Option(
        name: .shortAndLong, help: "The HTML file to write (- for standard output).",
        completion: .file(extensions: ["html"]))
    var output = "odrpack-report.html"

    @OptionGroup var outputOptions: OutputOptions

    var shared: SharedOptions { SharedOptions(output: outputOptions) }

    var interruptedOutcome: String { "'\(output)' is as it was, or written whole" }

    func validate() throws {
        do { try LimitProfile.check(commandLineName: profile) } catch { throw ValidationError("\(error)") }
        if output.isEmpty {
            throw ValidationError("--output is empty (an unset variable?): name the HTML file to write")
        }
    }

    func run(_ context: CommandContext) throws {
        let console = context.console
        let manifest = try context.manifestPath(given: manifest)
        let result = try ProjectPlanner().plan(manifestPath: manifest, profile: profile, format: format)
        try console.printDiagnostics(result.diagnostics)
        guard let plan = result.readablePlan else {
            try console.error("no report: the manifest cannot be planned (\(Console.countSummary(result.diagnostics)))")
            throw ExitCode(1)
        }
        let target = try OutputTarget(output)
        try target.refuseInputs([manifest], of: "report")
        try HTMLFile.write(
            ReportModel(plan: plan, diagnostics: result.diagnostics, manifestPath: manifest).html, to: target)
        try console.printWrote(
            """
            Wrote \(output): \(plan.packs.count) packs, \(plan.resourceFiles) files, \
            \(Console.countSummary(result.diagnostics))\n
            """,
            toStandardOutput: target.isStandardOutput
        )
        if result.diagnostics.hasErrors { throw ExitCode(1) }
    }
}
