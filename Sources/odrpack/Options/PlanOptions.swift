import ArgumentParser
import ODRPackCore
import ODRPackReport

/// The options `plan` and `validate` share.
struct PlanOptions: ParsableArguments {
    @Argument(help: "The tag manifest.", completion: .file())
    var manifest = "odrpack.yml"

    @Option(
        help: "Limit profile: default, ios, ios18, tvos or background-assets (overrides the manifest's).",
        completion: .list(LimitProfile.names))
    var profile: String?

    @Option(
        help:
            """
            odr (On-Demand Resources, the default) or background-assets (Apple's successor; checks the \
            background-assets profile).
            """
    )
    var format: PackFormat = .odr

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    @Flag(help: "Exit 1 when there are warnings.")
    var warningsAsErrors = false

    @OptionGroup var gitHub: GitHubOptions

    @OptionGroup var output: OutputOptions

    func validate() throws {
        try gitHub.check(json: json)
        do { try LimitProfile.check(commandLineName: profile) } catch { throw ValidationError("\(error)") }
    }

    /// Plans the project; a manifest that cannot be read at all throws (exit 2).
    /// - Parameter alreadyChecked: files whose executable-content check a build already made (`RecordedChecks`).
    func planProject(
        listUntagged: Bool = false,
        alreadyChecked: @escaping ([ResolvedResource]) -> [Bool] = { $0.map { _ in false } }
    ) throws -> PlanResult {
        try ProjectPlanner().plan(
            manifestPath: manifest, profile: profile, format: format, listUntagged: listUntagged,
            alreadyChecked: alreadyChecked)
    }

    /// Exit 1 for an error, or for a warning under `--warnings-as-errors`: then the run fails on warnings alone, so it
    /// says so as an error, and `--quiet` (only errors) still shows the warnings that failed it.
    func exitCode(for diagnostics: [Diagnostic], console: Console) throws -> ExitCode {
        if diagnostics.hasErrors { return ExitCode(1) }
        guard warningsAsErrors, diagnostics.warningCount > 0 else { return .success }
        let count = diagnostics.warningCount
        if console.quiet && !json { try console.printDiagnostics(diagnostics, warningsFail: true) }
        try console.error(
            "\(count) warning\(count == 1 ? "" : "s") treated as error\(count == 1 ? "" : "s") (--warnings-as-errors)")
        return ExitCode(1)
    }
}
