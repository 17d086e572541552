import ArgumentParser
import Foundation
import ODRPackKit

@main
struct ODRPack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "odrpack",
        abstract: "Package an app's resources into On-Demand Resources asset packs.",
        version: ToolVersion.current,
        subcommands: [Plan.self, Validate.self, Build.self, Verify.self, Diff.self, Thin.self, Report.self, ImportXcode.self])

    static func main() {
        // A file-size limit and a closed pipe are reported as write errors (exit 2), not deaths by signal.
        signal(SIGXFSZ, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)  // 64 for a bad command line (ArgumentParser's validation exit code)
        }
        do {
            try command.run()
        } catch let code as ExitCode {
            exit(withError: code)
        } catch {
            // The one place where the tool's own failures become exit 2 (stdout or stderr unwritable included).
            try? StandardStream.write("odrpack: error: \(error)\n", to: STDERR_FILENO)
            Foundation.exit(2)
        }
    }
}

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

/// `--github` (SPEC 11), on plan, validate, build, diff and thin.
struct GitHubOptions: ParsableArguments {
    @Flag(help: "Also print every problem as a GitHub Actions annotation, and append a summary to $GITHUB_STEP_SUMMARY.")
    var github = false

    func check(json: Bool) throws {
        if github && json { throw ValidationError("--github and --json cannot be used together: annotations would break the JSON document") }
    }

    /// Annotations on stdout, then the step summary.
    func emit(_ diagnostics: [Diagnostic], summary: @autoclosure () -> String) throws {
        guard github else { return }
        try Console().printOut(GitHubActions.commands(diagnostics))
        try GitHubActions.appendStepSummary(summary())
    }
}
