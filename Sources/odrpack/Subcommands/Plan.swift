import ArgumentParser
import ODRPackFormats
import ODRPackPlatform
import ODRPackReport

struct Plan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Show the asset packs, tags and sizes a manifest makes, and every problem.")

    @OptionGroup var options: PlanOptions

    @Flag(
        help:
            "List the files that stay in the app (no entry tags them), one a line relative to resources-root, instead of the tables."
    )
    var listUntagged = false

    func run() throws {
        let manifest = try options.manifestPath()
        let result = try options.planProject(manifestPath: manifest, listUntagged: listUntagged)
        let console = options.output.console
        let untagged = listUntagged ? PlanReport.untaggedFiles(result) : nil
        if options.json {
            try console.printJSON { try PlanReport.writeJSON(result, untaggedFiles: untagged, to: &$0) }
        } else {
            if let untagged {
                try console.printOut(untagged.map { TerminalText.escaped($0) + "\n" }.joined())
                if result.resolution?.untaggedFiles == nil, result.readablePlan != nil {
                    try console.printNote("odrpack: untagged: ignore: files no entry names are not looked at\n")
                }
            } else if let plan = result.readablePlan {
                try console.printOut(PlanReport.text(plan, manifestPath: manifest))
            }
            try console.printDiagnostics(result.diagnostics)
            if !result.diagnostics.isEmpty { try console.printNote(Console.countSummary(result.diagnostics) + "\n") }
        }
        try options.gitHub.emit(
            result.diagnostics,
            summary: MarkdownReport.plan(
                result.readablePlan, diagnostics: result.diagnostics, title: "plan \(manifest)"))
        let code = try options.exitCode(for: result.diagnostics, console: console)
        if code != .success { throw code }
    }
}
