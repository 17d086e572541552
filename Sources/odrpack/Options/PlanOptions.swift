import ArgumentParser
import ODRPackCore
import ODRPackPlatform
import ODRPackReport

/// The options `plan` and `validate` share.
struct PlanOptions: ParsableArguments {
    @Argument(
        help: "The tag manifest (default: odrpack.yml here or in a parent folder, up to the repository's root).",
        completion: .file())
    var manifest: String?

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

    @Option(help: ApplePlatform.optionHelp)
    var platform: ApplePlatform?

    @Option(help: InputRoot.optionHelp, completion: .directory)
    var inputRoot: String?

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    @OptionGroup var gate: WarningsGate

    @OptionGroup var gitHub: GitHubOptions

    @OptionGroup var output: OutputOptions

    /// The groups `plan` and `validate` share with every command, for their `CommandContext`.
    var shared: SharedOptions { SharedOptions(output: output, json: json, gate: gate, gitHub: gitHub) }

    func validate() throws {
        try gitHub.check(json: json)
        do { try LimitProfile.check(commandLineName: profile) } catch { throw ValidationError("\(error)") }
        try ApplePlatform.check(platform, format: format)
    }

    /// Plans the project; a manifest that cannot be read at all throws (exit 2).
    /// - Parameter alreadyChecked: files whose executable-content check a build already made (`RecordedChecks`).
    func planProject(
        manifestPath: String, listUntagged: Bool = false,
        alreadyChecked: @escaping ([ResolvedResource]) -> [Bool] = { $0.map { _ in false } }
    ) throws -> PlanResult {
        if let inputRoot { try InputRoot(inputRoot).check(manifestPath: manifestPath) }
        return try ProjectPlanner().plan(
            manifestPath: manifestPath, profile: profile, format: format, platform: platform,
            listUntagged: listUntagged,
            alreadyChecked: alreadyChecked)
    }
}
