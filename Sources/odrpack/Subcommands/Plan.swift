import ArgumentParser
import ODRPackKit

struct Plan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the asset packs, tags and sizes a manifest makes, and every problem.")

    @OptionGroup var options: PlanOptions

    func run() throws {
        let result = try options.planProject()
        let console = Console()
        if options.json {
            var document: [(String, JSONValue)] = []
            if let plan = result.plan, result.resolution?.rootPath.isEmpty == false {
                document = BuildManifest(plan: plan).jsonMembers
            }
            document.append(("diagnostics", DiagnosticsDocument.json(result.diagnostics)))
            try console.printOut(JSONValue.object(document).serialized())
        } else {
            if let plan = result.plan, result.resolution?.rootPath.isEmpty == false {
                try console.printOut(PlanReport.text(plan, manifestPath: options.manifest))
            }
            try console.printDiagnostics(result.diagnostics)
            if !result.diagnostics.isEmpty { try console.printError(Console.countSummary(result.diagnostics) + "\n") }
        }
        try options.gitHub.emit(result.diagnostics, summary: MarkdownReport.plan(
            result.resolution?.rootPath.isEmpty == false ? result.plan : nil, diagnostics: result.diagnostics, title: "plan \(options.manifest)"))
        let code = options.exitCode(for: result.diagnostics)
        if code != .success { throw code }
    }
}
