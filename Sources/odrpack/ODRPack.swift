import ArgumentParser
import Foundation
import ODRPackCore
import ODRPackPlatform

@main
struct ODRPack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "odrpack",
        abstract: "Package an app's resources into On-Demand Resources asset packs.",
        version: ToolVersion.current,
        subcommands: [
            Plan.self, Validate.self, Build.self, Verify.self, Diff.self, Thin.self, Report.self, ImportXcode.self,
            Upload.self,
        ])

    static func main() {
        StandardStream.reportFailedWritesAsErrors()
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
        } catch let ODRPackError.usage(message) {
            try? StandardStream.write("odrpack: error: \(message)\n", to: StandardStream.error)
            Foundation.exit(64)
        } catch {
            // `--help` arrives here (ArgumentParser's help command throws from run): ArgumentParser prints it.
            if !(error is ODRPackError), [ExitCode.success, ExitCode.validationFailure].contains(exitCode(for: error)) {
                exit(withError: error)
            }
            // The one place where the tool's own failures become exit 2 (stdout or stderr unwritable included).
            try? StandardStream.write("odrpack: error: \(error)\n", to: StandardStream.error)
            Foundation.exit(2)
        }
    }
}
