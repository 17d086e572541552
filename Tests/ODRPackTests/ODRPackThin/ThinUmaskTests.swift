import Foundation
import Testing

/// docs/commands.md#thin: what `thin --embed` writes into the app has modes that do not depend on the umask: folders
/// 0755 (`OnDemandResources/` itself included), files 0644, as `ipa`'s do.
extension ThinCommandTests {
    @Test(arguments: ["zip", "folder"])
    func embedModesDoNotDependOnTheUmask(layout: String) throws {
        let project = try builtGame(subfolder: "", ["--layout", layout])
        let output = try CommandRunner.run(
            [
                "-c", "umask 077 && exec \"$0\" \"$@\"", CommandRunner.executable.path, "thin", "Game.app", "out",
                "--embed",
            ],
            in: project.root, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(output.status == 0, "\(output.stderr)")
        let root = project.path("Game.app/OnDemandResources")
        var modes: [String: mode_t] = ["": OutputHoldTests.mode(root) & 0o7777]
        for case let relative as String in FileManager.default.enumerator(atPath: root)! {
            modes[relative] = OutputHoldTests.mode(root + "/" + relative) & 0o7777
        }
        #expect(modes.count > 4)
        for (path, mode) in modes {
            let isFolder = OutputHoldTests.mode(root + "/" + path) & S_IFMT == S_IFDIR
            #expect(mode == (isFolder ? 0o755 : 0o644), "\(layout) '\(path)': \(String(mode, radix: 8))")
        }
        #expect(OutputHoldTests.mode(project.path("Game.app/OnDemandResources.plist")) & 0o7777 == 0o644)
    }
}
