import ArgumentParser
import ODRPackPlatform
import ODRPackReport
import ODRPackVerify

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Re-read every archive of a build folder and check it against odrpack-manifest.json.")

    @Argument(help: "The build folder (or its odrpack-manifest.json).", completion: .file())
    var directory: String

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    @OptionGroup var gate: WarningsGate

    @OptionGroup var output: OutputOptions

    @OptionGroup var progress: ProgressOptions

    func run() throws {
        let console = output.console
        let report = try BuildVerifier().verify(directory, progress: progress.bar(console)) {
            try? console.printNote("odrpack: a build is using '\(directory)': waiting for it to finish\n")
        }
        if json {
            try console.printJSON(VerifyReport.json(report))
        } else {
            try console.printDiagnostics(report.allDiagnostics)
            try console.printOut(VerifyReport.verdict(report))
        }
        if !report.ok { throw ExitCode(1) }
        if try gate.failsOnWarnings(report.allDiagnostics, console: console, json: json) { throw ExitCode(1) }
    }
}
