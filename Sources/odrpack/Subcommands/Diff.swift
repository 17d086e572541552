import ArgumentParser
import Foundation
import ODRPackBuildFormat
import ODRPackDiff
import ODRPackPlatform
import ODRPackReport

struct Diff: ODRPackCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two builds: which packs changed, why, and what devices download again.")

    static let examples: [CommandHelp.Example] = [
        .init(what: "What changed between two builds", command: "odrpack diff v1/build v2/build"),
        .init(
            what: "A pull-request comment; exit 1 when they differ",
            command: "odrpack diff v1/build v2/build --markdown --exit-code"),
        .init(what: "A page to open in a browser", command: "odrpack diff v1/build v2/build --html diff.html"),
    ]

    @Argument(help: "The old build folder (or its odrpack-manifest.json).", completion: .file())
    var old: String

    @Argument(help: "The new build folder (or its odrpack-manifest.json).", completion: .file())
    var new: String

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    @Flag(help: "Exit 1 when the builds differ, like git diff --exit-code.")
    var exitCode = false

    @Flag(help: "Print the diff as Markdown, for a pull-request comment.")
    var markdown = false

    @Option(
        help: "Write the diff as one self-contained HTML page (- for standard output) instead of the text.",
        completion: .file(extensions: ["html"]))
    var html: String?

    @OptionGroup var gate: WarningsGate

    @OptionGroup var gitHub: GitHubOptions

    @OptionGroup var output: OutputOptions

    var shared: SharedOptions { SharedOptions(output: output, json: json, gate: gate, gitHub: gitHub) }

    var interruptedOutcome: String {
        guard let html else { return "nothing was changed" }
        return "'\(html)' is as it was, or written whole"
    }

    func validate() throws {
        if html?.isEmpty == true {
            throw ValidationError("--html is empty (an unset variable?): name the HTML file to write")
        }
        try gitHub.check(json: json)
        // Two documents on one stream: `-`, or any path to what standard output is (`/dev/stdout`, `/dev/./stdout`,
        // `/proc/self/fd/1`, a link to it), as the page's own target decides (docs/commands.md#scripts).
        if let html, json || markdown || gitHub.github,
            OutputTarget.isStandardOutput(html, streams: CommandState.parsing.streams)
        {
            throw ValidationError(
                """
                --html \(html) and --\(json ? "json" : markdown ? "markdown" : "github") both print on standard \
                output: name an HTML file instead of \(html)
                """
            )
        }
        if json && markdown {
            throw ValidationError("--json and --markdown cannot be used together: choose one output")
        }
    }

    /// Whether NEW's packs are archives (what crosses the network) rather than pack folders (`--layout folder`), which
    /// the build manifest does not record: its first pack's file on disk says. A manifest given without its folder
    /// (or a pack missing) counts as archives, as the manifest's figures then are all there is.
    static func holdsArchives(_ path: String, manifest: BuildManifest) -> Bool {
        guard let pack = manifest.packs.first else { return true }
        let given = PathArgument.path(path)
        let folder = SystemCall.status(given, followingLinks: true)?.kind == .directory ? given : given.parent
        return SystemCall.status(folder.joined(pack.file), followingLinks: true)?.kind != .directory
    }

    func run(_ context: CommandContext) throws {
        let console = context.console
        // Each build folder open for reading, as verify opens it (a build of it waits, and diff waits for one), its
        // manifest read once under that lock, both at once. Sources are not compared (a file is its destination and
        // content): not held.
        let sessions = try [old, new].map {
            try BuildFolderSession.open(
                forReading: PathArgument.path($0), keepingSources: false, onWait: context.waitingNote(for: $0))
        }
        let both = try parallelMap(sessions) { try $0.manifest() }
        let (before, after) = (both[0], both[1])
        try BuildDiff.checkComparable(old: before, new: after)
        let diff = BuildDiff(old: before, new: after, newHasArchives: Self.holdsArchives(new, manifest: after))
        if let html {
            let target = try OutputTarget(PathArgument.path(html), streams: context.streams)
            try target.refuseInputs(sessions.map(\.folder.manifest), of: "diff")
            let page = DiffReportModel(
                diff: diff, old: before, new: after, oldName: PathArgument.shown(old),
                newName: PathArgument.shown(new), fileLists: false)
            try HTMLFile.write(page.htmlDocument, to: target)
            // The page is what was asked for: one line says where it went, instead of the text report.
            if !json && !markdown {
                try console.printWrote("Wrote \(PathArgument.shown(html))\n", toStandardOutput: target.isStandardOutput)
            }
        }
        if json {
            try console.printJSON { try DiffReport.writeJSON(diff, to: &$0) }
        } else if markdown {
            try console.printOut(MarkdownReport.diff(diff))
        } else if html == nil {
            try console.printOut(
                DiffReport.text(diff, old: PathArgument.shown(old), new: PathArgument.shown(new)))
        }
        try context.emitGitHub([], summary: MarkdownReport.diff(diff))
        if exitCode && diff.hasChanges { throw ExitCode(1) }
    }
}
