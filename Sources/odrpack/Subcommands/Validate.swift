import ArgumentParser
import ODRPackBuild
import ODRPackCore
import ODRPackPlatform
import ODRPackReport

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a manifest and its resources against the store's limits; print only problems.")

    @OptionGroup var options: PlanOptions

    func run() throws {
        // What the newest build of this project packed needs no second read (docs/build-output.md#incremental).
        let manifest = try options.manifestPath()
        let result = try options.planProject(
            manifestPath: manifest, alreadyChecked: RecordedChecks.alreadyChecked(manifestPath: manifest))
        let console = options.output.console
        if options.json {
            try console.printJSON(PlanReport.validationJSON(result))
        } else {
            try console.printDiagnostics(result.diagnostics)
            var line = "\(manifest): "
            if let plan = result.readablePlan {
                line +=
                    """
                    \(plan.packs.count) pack\(plan.packs.count == 1 ? "" : "s"), \(plan.resourceFiles) tagged \
                    file\(plan.resourceFiles == 1 ? "" : "s"), \(ByteCount.format(plan.totalSize)); 
                    """
            }
            line += Console.countSummary(result.diagnostics)
            try console.printOut(line + "\n")
        }
        try options.gitHub.emit(
            result.diagnostics,
            summary: MarkdownReport.plan(
                result.readablePlan, diagnostics: result.diagnostics, title: "validate \(manifest)"))
        let code = try options.exitCode(for: result.diagnostics, console: console)
        if code != .success { throw code }
    }
}
