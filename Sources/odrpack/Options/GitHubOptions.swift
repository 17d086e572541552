import ArgumentParser
import ODRPackCore
import ODRPackPlatform
import ODRPackReport

/// `--github` (docs/commands.md#report-and-ci), on plan, validate, build, diff and thin.
struct GitHubOptions: ParsableArguments {
    @Flag(
        help: "Also print every problem as a GitHub Actions annotation, and append a summary to $GITHUB_STEP_SUMMARY.")
    var github = false

    func check(json: Bool) throws {
        if github && json {
            throw ValidationError(
                "--github and --json cannot be used together: annotations would break the JSON document")
        }
    }

    /// Annotations on the run's stdout, then the step summary (`GITHUB_STEP_SUMMARY` of the run's environment).
    func emit(
        _ diagnostics: [Diagnostic], summary: @autoclosure () -> String, console: Console, environment: [String: String]
    ) throws {
        guard github else { return }
        try console.printRequested(GitHubActions.commands(diagnostics.inPositionOrder))
        try GitHubActions.appendStepSummary(summary(), environment: environment)
    }
}
