import ArgumentParser
import ODRPackKit

/// The options `plan` and `validate` share.
struct PlanOptions: ParsableArguments {
    @Argument(help: "The tag manifest.")
    var manifest = "odrpack.yml"

    @Option(help: "Limit profile: default, ios, ios18 or tvos (overrides the manifest's).")
    var profile: String?

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    @Flag(help: "Exit 1 when there are warnings.")
    var warningsAsErrors = false

    @OptionGroup var gitHub: GitHubOptions

    func validate() throws {
        try gitHub.check(json: json)
        if let profile, LimitProfile.named(profile) == nil {
            throw ValidationError("unknown profile '\(profile)': use one of \(LimitProfile.names.joined(separator: ", "))")
        }
    }

    /// Plans the project; a manifest that cannot be read at all throws (exit 2).
    func planProject() throws -> PlanResult {
        try ProjectPlanner().plan(manifestPath: manifest, profile: profile)
    }

    func exitCode(for diagnostics: [Diagnostic]) -> ExitCode {
        if diagnostics.hasErrors || (warningsAsErrors && diagnostics.warningCount > 0) { return ExitCode(1) }
        return .success
    }
}
