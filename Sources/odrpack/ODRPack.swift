import ArgumentParser
import Foundation
import ODRPackKit

@main
struct ODRPack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "odrpack",
        abstract: "Package an app's resources into On-Demand Resources asset packs.",
        version: ToolVersion.current,
        subcommands: [Plan.self, Validate.self, Build.self, Verify.self, Diff.self, Thin.self, ImportXcode.self])

    static func main() {
        setlocale(LC_ALL, "C.UTF-8")
        // A file-size limit is reported as a write error (exit 2), not a crash.
        signal(SIGXFSZ, SIG_IGN)
        setenv("TZ", "UTC", 1)
        tzset()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
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

    func validate() throws {
        if let profile, LimitProfile.named(profile) == nil {
            throw ValidationError("unknown profile '\(profile)': use one of \(LimitProfile.names.joined(separator: ", "))")
        }
    }

    /// Plans the project; a manifest that cannot be read at all ends the tool with exit 2.
    func planProject() throws -> PlanResult {
        do {
            return try ProjectPlanner().plan(manifestPath: manifest, profile: profile)
        } catch let error as ManifestLoader.ReadError {
            Console().printError("odrpack: error: \(error.description)\n")
            throw ExitCode(2)
        }
    }

    func exitCode(for diagnostics: [Diagnostic]) -> ExitCode {
        if diagnostics.hasErrors || (warningsAsErrors && diagnostics.warningCount > 0) { return ExitCode(1) }
        return .success
    }
}
