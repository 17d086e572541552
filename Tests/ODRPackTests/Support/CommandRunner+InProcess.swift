import Foundation
import ODRPackPlatform

@testable import odrpack

extension CommandRunner {
    /// Runs odrpack in this process, as `main` does (`ODRPack.run(arguments:state:)`), with its stdout and stderr kept
    /// in memory and the environment `run` would give the binary: the same status, output and files, without a
    /// process (docs/architecture.md#tests). For what is not about the process; signals, exit 130, closed pipes, peak
    /// memory and locks held by another process stay with `run`.
    ///
    /// The run never changes the process's current folder (tests run in parallel): `directory` is where the manifest
    /// search starts, and every other path in `arguments` is absolute, as the system opens a relative one from the
    /// process's own folder.
    /// - Parameters:
    ///   - stdoutIsTerminal, stderrIsTerminal: what the command believes its streams are (colour, the progress bar).
    static func runInProcess(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false
    ) -> Output {
        var variables = ProcessInfo.processInfo.environment
        variables["NO_COLOR"] = "1"
        variables["ODRPACK_CACHE_DIR"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("odrpack-test-cache").path
        for (key, value) in environment { variables[key] = value }
        let (state, output, error) = CommandState.captured(
            environment: variables, currentFolder: directory.map { FilePath($0.path) },
            stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal)
        let status = ODRPack.run(arguments: arguments, state: state)
        return Output(status: status, stdout: output.text, stderr: error.text)
    }
}
