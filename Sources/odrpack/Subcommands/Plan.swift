import ArgumentParser
import ODRPackPlatform
import ODRPackReport

struct Plan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Show the asset packs, tags and sizes a manifest makes, and every problem.")

    @OptionGroup var options: PlanOptions

    func run() throws {
        let result = try options.planProject()
        let console = Console()
        if options.json {
            try console.printOut(PlanReport.json(result).serialized())
        } else {
            if let plan = result.readablePlan {
                try console.printOut(PlanReport.text(plan, manifestPath: options.manifest))
            }
            try console.printDiagnostics(result.diagnostics)
            if !result.diagnostics.isEmpty { try console.printError(Console.countSummary(result.diagnostics) + "\n") }
        }
        try options.gitHub.emit(
            result.diagnostics,
            summary: MarkdownReport.plan(
                result.readablePlan, diagnostics: result.diagnostics, title: "plan \(options.manifest)"))
        let code = options.exitCode(for: result.diagnostics)
        if code != .success { throw code }
    }
}
