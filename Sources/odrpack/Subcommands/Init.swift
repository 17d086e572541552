import ArgumentParser
import Foundation
import ODRPackCore
import ODRPackPlatform
import ODRPackReport

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a first odrpack.yml in this folder: one tagged entry per top-level folder of the resources.")

    @Argument(help: "The folder that holds the resources (default: this folder).", completion: .directory)
    var folder = "."

    @Flag(help: "Overwrite an existing odrpack.yml.")
    var force = false

    @OptionGroup var output: OutputOptions

    func run() throws {
        let console = output.console
        var root = folder
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        if root.isEmpty { throw ODRPackError.usage("the resources folder is empty: pass a folder, or nothing for '.'") }
        let template = try ManifestTemplate.scan(
            resourcesRoot: root, from: FileManager.default.currentDirectoryPath)
        try template.write(to: ManifestTemplate.fileName, force: force)
        let files = template.folders.map(\.files).reduce(0, +)
        let bytes = template.folders.map(\.bytes).saturatingSum
        let count = template.folders.count
        try console.printOut(
            """
            Wrote \(ManifestTemplate.fileName): \(count) tagged folder\(count == 1 ? "" : "s") of '\(root)' \
            (\(files) file\(files == 1 ? "" : "s"), \(ByteCount.format(bytes))).
            Next: set bundle-id to your app's bundle identifier, then run `odrpack plan`.\n
            """
        )
    }
}
