import ArgumentParser
import ODRPackBuild
import ODRPackCore
import ODRPackPlatform
import ODRPackReport

struct Validate: ODRPackCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a manifest and its resources against the store's limits; print only problems.")

    static let examples: [CommandHelp.Example] = [
        .init(what: "A CI gate that fails on warnings too", command: "odrpack validate --warnings-as-errors"),
        .init(what: "Annotate a GitHub Actions run", command: "odrpack validate Game/odrpack.yml --github"),
    ]

    @OptionGroup var options: PlanOptions

    var shared: SharedOptions { options.shared }

    func run(_ context: CommandContext) throws {
        // What the newest build of this project packed needs no second read (docs/build-output.md#incremental).
        let manifest = try context.manifestPath(given: options.manifest)
        let result = try options.planProject(
            manifestPath: manifest,
            alreadyChecked: RecordedChecks.alreadyChecked(manifestPath: manifest, environment: context.environment))
        let console = context.console
        if context.json {
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
            line += Console.countSummary(result.diagnostics, allowed: result.allowed)
            try console.printOut(line + "\n")
        }
        try context.emitGitHub(
            result.diagnostics,
            summary: MarkdownReport.plan(
                result.readablePlan, diagnostics: result.diagnostics, title: "validate \(manifest)"))
        try context.exitOnFailure(result.diagnostics)
    }
}
