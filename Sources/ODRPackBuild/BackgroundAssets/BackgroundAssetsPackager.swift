import Foundation
import ODRPackPlatform

/// Apple's `ba-package`, which makes a pack's `.aar` from its manifest (SPEC 12). odrpack never writes Apple Archive
/// bytes itself: it drives the packager, from resources-root, since ba-package stores each file at its path relative
/// to where it runs.
struct BackgroundAssetsPackager: Sendable {
    /// The command with its `{manifest}` and `{output}` placeholders.
    let template: String

    init(template: String) { self.template = template }

    /// `--ba-package CMD`, else `ba-package` on PATH, else `xcrun ba-package`.
    /// - Throws: `ODRPackError.commandFailed` (exit 2) when there is none, saying how to get one.
    package static func resolve(command: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> BackgroundAssetsPackager {
        if let command { return BackgroundAssetsPackager(template: command) }
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        func onPath(_ name: String) -> Bool {
            folders.contains { FileManager.default.isExecutableFile(atPath: ($0.isEmpty ? "." : $0) + "/" + name) }
        }
        if onPath("ba-package") { return BackgroundAssetsPackager(template: "ba-package {manifest} -o {output}") }
        if onPath("xcrun") { return BackgroundAssetsPackager(template: "xcrun ba-package {manifest} -o {output}") }
        throw ODRPackError.commandFailed(
            "no Background Assets packager: neither ba-package nor xcrun is on PATH. Install Xcode 26 or later (or its command line tools) on a Mac, which bring 'xcrun ba-package', or pass --ba-package CMD with {manifest} and {output} where the pack's manifest and archive go; nothing was written")
    }

    /// The shell command for one pack: the placeholders become quoted absolute paths.
    package func command(manifest: String, output: String) -> String {
        template.replacingOccurrences(of: "{manifest}", with: ShellCommand.quoted(manifest))
            .replacingOccurrences(of: "{output}", with: ShellCommand.quoted(output))
    }

    func run(manifest: String, output: String, in directory: String, pack: String) throws {
        try ShellCommand.run(command(manifest: manifest, output: output), in: directory,
                             what: "the Background Assets packager", on: "pack '\(pack)'")
    }
}
