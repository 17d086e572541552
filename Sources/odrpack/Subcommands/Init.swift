import ArgumentParser
import Foundation
import ODRPackCore
import ODRPackPlatform
import ODRPackReport

struct Init: ODRPackCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a first odrpack.yml in this folder: one tagged entry per top-level folder of the resources.")

    static let examples: [CommandHelp.Example] = [
        .init(
            what: "A manifest for the folders of Resources/, in this folder", command: "odrpack init Resources"),
        .init(what: "Start again over an existing odrpack.yml", command: "odrpack init Resources --force"),
    ]

    @Argument(help: "The folder that holds the resources (default: this folder).", completion: .directory)
    var folder = "."

    @Flag(help: "Overwrite an existing odrpack.yml.")
    var force = false

    @Option(
        help: "The limit profile the manifest names: default, ios (the default), ios18, tvos or background-assets.",
        completion: .list(LimitProfile.names))
    var profile = "ios"

    @OptionGroup var output: OutputOptions

    var shared: SharedOptions { SharedOptions(output: output) }

    var interruptedOutcome: String { "'\(ManifestTemplate.fileName)' is as it was, or written whole" }

    func validate() throws {
        do { try LimitProfile.check(commandLineName: profile) } catch { throw ValidationError("\(error)") }
    }

    func run(_ context: CommandContext) throws {
        let console = context.console
        var root = try PathArgument.text(folder, "FOLDER")
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        if root.isEmpty { throw ODRPackError.usage("the resources folder is empty: pass a folder, or nothing for '.'") }
        var template = try ManifestTemplate.scan(
            resourcesRoot: root, from: FileManager.default.currentDirectoryPath)
        template.profile = profile
        try template.write(to: ManifestTemplate.fileName, force: force)
        let files = template.folders.map(\.files).reduce(0, +)
        let bytes = template.folders.map(\.bytes).saturatingSum
        let count = template.folders.count
        try console.printOut(
            """
            Wrote \(ManifestTemplate.fileName): \(count) tagged folder\(count == 1 ? "" : "s") of '\(root)' \
            (\(files) file\(files == 1 ? "" : "s"), \(ByteCount.format(bytes))).
            Next: set bundle-id to your app's bundle identifier, move the tags the first launch needs to \
            initial-install, then run `odrpack plan`.\n
            """
        )
        for (name, why) in template.skipped {
            try console.warning("skipped '\(root)/\(name)': \(why); rename it to tag it")
        }
    }
}
