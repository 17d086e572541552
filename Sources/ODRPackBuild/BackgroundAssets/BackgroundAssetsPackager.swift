import Foundation
import ODRPackPlatform

/// Apple's `ba-package`, which makes a pack's `.aar` from its manifest (docs/background-assets.md). odrpack never writes Apple Archive
/// bytes itself: it drives the packager from a folder where every file of the pack is at its destination, since
/// ba-package stores each file at its path relative to where it runs.
package struct BackgroundAssetsPackager: Sendable {
    /// The command with its `{manifest}` and `{output}` placeholders, as recorded in odrpack-manifest.json.
    let template: String
    /// The first line the packager's `--version` printed; nil for `--ba-package`, whose version odrpack cannot ask.
    let version: String?

    init(template: String, version: String? = nil) {
        self.template = template
        self.version = version
    }

    static let onPathTemplate = "ba-package {manifest} -o {output}"
    static let xcrunTemplate = "xcrun ba-package {manifest} -o {output}"

    /// `--ba-package CMD`, else `ba-package` on PATH, else `xcrun ba-package` when `xcrun --find ba-package` finds
    /// it (every Mac has xcrun; only Xcode 26 and later has ba-package). A found packager's `--version` runs once.
    /// - Throws: `ODRPackError.commandFailed` (exit 2) when there is none, or its `--version` fails.
    package static func resolve(command: String?, environment: [String: String])
        throws -> BackgroundAssetsPackager
    {
        if let command { return BackgroundAssetsPackager(template: command) }
        let folders = (environment["PATH"] ?? "").split(separator: ":", omittingEmptySubsequences: false).map(
            String.init)
        func onPath(_ name: String) -> Bool {
            folders.contains { FileManager.default.isExecutableFile(atPath: ($0.isEmpty ? "." : $0).slashJoined(name)) }
        }
        let (template, program): (String, String)
        if onPath("ba-package") {
            (template, program) = (onPathTemplate, "ba-package")
        } else if onPath("xcrun"), ShellCommand.capture("xcrun --find ba-package 2>/dev/null")?.status == 0 {
            (template, program) = (xcrunTemplate, "xcrun ba-package")
        } else {
            throw ODRPackError.commandFailed(.noPackager(xcrunOnPath: onPath("xcrun")))
        }
        guard let answer = ShellCommand.capture(program + " --version"), answer.status == 0 else {
            throw ODRPackError.commandFailed(.packagerVersionFailed(program: program))
        }
        let firstLine = answer.output.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return BackgroundAssetsPackager(template: template, version: firstLine)
    }

    /// The shell command for one pack: the placeholders become quoted absolute paths.
    package func command(manifest: String, output: String) -> String {
        ShellCommand.filling(template, with: ["{manifest}": manifest, "{output}": output])
    }

    func run(manifest: String, output: String, in directory: String, pack: String) throws {
        try ShellCommand.run(
            command(manifest: manifest, output: output), in: FilePath(directory),
            what: "the Background Assets packager", on: "pack '\(pack)'")
    }
}
