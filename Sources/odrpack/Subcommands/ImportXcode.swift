import ArgumentParser
import Foundation
import ODRPackBuildFormat
import ODRPackPlatform
import ODRPackReport
import ODRPackXcode

struct ImportXcode: ODRPackCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-xcode",
        abstract: "Write an odrpack.yml from the On-Demand Resources tags of an Xcode project.")

    static let examples: [CommandHelp.Example] = [
        .init(what: "The tags of an Xcode project", command: "odrpack import-xcode MyGame.xcodeproj"),
        .init(
            what: "One target and configuration, over an existing file",
            command: "odrpack import-xcode . --target MyGame --configuration Debug --force"),
    ]

    @Argument(help: "The .xcodeproj folder, or a folder that holds exactly one.", completion: .directory)
    var project: String

    @Option(help: "The target (default: the project's one application target).")
    var target: String?

    @Option(help: "The build configuration whose settings are read.")
    var configuration = "Release"

    @Option(
        name: .shortAndLong, help: "The manifest to write (- for standard output).",
        completion: .file(extensions: ["yml", "yaml"]))
    var output = "odrpack.yml"

    @Option(
        name: .customLong("setting"),
        help: "NAME=VALUE: a build setting for the import, over the project's own value (repeatable).")
    var settings: [String] = []

    @Flag(help: "Overwrite the output file if it exists (a pipe or - never needs it).")
    var force = false

    @OptionGroup var gate: WarningsGate

    @OptionGroup var outputOptions: OutputOptions

    var shared: SharedOptions { SharedOptions(output: outputOptions, gate: gate) }

    var interruptedOutcome: String { "'\(output)' is as it was, or written whole" }

    func validate() throws {
        if output.isEmpty {
            throw ValidationError("--output is empty (an unset variable?): name the manifest to write")
        }
        for setting in settings where (setting.firstIndex(of: "=") ?? setting.startIndex) == setting.startIndex {
            throw ValidationError("--setting takes NAME=VALUE, not '\(setting)'")
        }
    }

    func run(_ context: CommandContext) throws {
        let console = context.console
        var options = XcodeImporter.Options()
        options.target = target
        options.configuration = configuration
        for setting in settings {
            let equals = setting.firstIndex(of: "=")!  // validate() checked
            options.settings[String(setting[..<equals])] = String(setting[setting.index(after: equals)...])
        }
        let located = try XcodeProject.locate(PathArgument.text(project, "PROJECT"))
        let result = try XcodeImporter(options: options).importProject(at: located)
        try console.printDiagnostics(result.diagnostics)
        // The import's notes and warnings (what it left out or changed): under the gate they fail the run and nothing
        // is written, as for every command that writes.
        let warnings = result.notes.count + result.diagnostics.filter { $0.severity == .warning }.count
        if context.warningsAsErrors && warnings > 0 {
            for note in result.notes { try console.printError("note: \(note)\n") }
            try console.error(
                """
                \(warnings) warning\(warnings == 1 ? "" : "s") treated as error\(warnings == 1 ? "" : "s") \
                (--warnings-as-errors): '\(PathArgument.shown(output))' not written
                """)
            throw ExitCode(1)
        }
        let target = try OutputTarget(PathArgument.path(output), streams: context.streams)
        try target.refuseInputs([FilePath(located).joined("project.pbxproj")], of: "import-xcode")
        try ImportedManifestWriter.write(result, to: target, force: force)
        try console.printWrote(
            """
            Wrote \(PathArgument.shown(output)): \(result.entries.count) tagged path\(result.entries.count == 1 ? "" : "s") from target \
            \(result.target) (\(result.configuration))\n
            """,
            toStandardOutput: target.isStandardOutput
        )
        for note in result.notes { try console.printNote("note: \(note)\n") }
    }
}
