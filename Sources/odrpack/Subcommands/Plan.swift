import ArgumentParser
import ODRPackFormats
import ODRPackPlatform
import ODRPackReport

struct Plan: ODRPackCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Show the asset packs, tags and sizes a manifest makes, and every problem.")

    static let examples: [CommandHelp.Example] = [
        .init(what: "The packs, tags and sizes of ./odrpack.yml", command: "odrpack plan"),
        .init(what: "Against the iOS 18 limits", command: "odrpack plan Game/odrpack.yml --profile ios18"),
        .init(what: "The files that stay in the app", command: "odrpack plan --list-untagged"),
    ]

    @OptionGroup var options: PlanOptions

    @Flag(
        help:
            "List the files that stay in the app (no entry tags them), one a line relative to resources-root, instead of the tables."
    )
    var listUntagged = false

    var shared: SharedOptions { options.shared }

    func run(_ context: CommandContext) throws {
        let manifest = try context.manifestPath(given: options.manifest)
        let result = try options.planProject(manifestPath: manifest, listUntagged: listUntagged)
        let console = context.console
        let untagged = listUntagged ? PlanReport.untaggedFiles(result) : nil
        if context.json {
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
            if !result.diagnostics.isEmpty || !result.allowed.isEmpty {
                try console.printNote(Console.countSummary(result.diagnostics, allowed: result.allowed) + "\n")
            }
        }
        try context.emitGitHub(
            result.diagnostics,
            summary: MarkdownReport.plan(
                result.readablePlan, diagnostics: result.diagnostics, title: "plan \(manifest)"))
        try context.exitOnFailure(result.diagnostics)
    }
}
