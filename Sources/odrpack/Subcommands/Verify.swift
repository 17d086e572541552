import ArgumentParser
import ODRPackPlatform
import ODRPackReport
import ODRPackVerify

struct Verify: ODRPackCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Re-read every archive of a build folder and check it against odrpack-manifest.json.")

    static let examples: [CommandHelp.Example] = [
        .init(what: "Re-read every pack of a build", command: "odrpack verify build/odr"),
        .init(what: "The verdict as JSON, for a script", command: "odrpack verify build/odr --json"),
    ]

    @Argument(help: "The build folder (or its odrpack-manifest.json).", completion: .file())
    var directory: String

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    @OptionGroup var gate: WarningsGate

    @OptionGroup var output: OutputOptions

    @OptionGroup var progress: ProgressOptions

    var shared: SharedOptions { SharedOptions(output: output, json: json, gate: gate, progress: progress) }

    func run(_ context: CommandContext) throws {
        let console = context.console
        let directory = try PathArgument.text(self.directory, "BUILD_DIR")
        let report = try BuildVerifier().verify(
            FilePath(directory), progress: context.progressBar(), onWait: context.waitingNote(for: directory))
        if json {
            try console.printJSON(VerifyReport.json(report))
        } else {
            try console.printDiagnostics(report.allDiagnostics)
            try console.printOut(VerifyReport.verdict(report, directory: directory))
        }
        if !report.ok { throw ExitCode(1) }
        if try context.warningsFail(report.allDiagnostics) { throw ExitCode(1) }
    }
}
