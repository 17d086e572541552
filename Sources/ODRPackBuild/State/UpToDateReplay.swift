import Foundation
import ODRPackCore
import ODRPackFormats

/// What an up-to-date build prints: the last build's diagnostics and a summary with nothing written.
package struct UpToDateReplay {
    let replay: BuildState.Replay
    let packIDs: [String]
    /// odrpack-manifest.json, whose metadata the check found unchanged.
    let manifestPath: String

    package var diagnostics: [Diagnostic] { replay.diagnostics }

    package func summary(seconds: Double) -> BuildSummary {
        BuildSummary(
            packs: packIDs.count, written: 0, reused: packIDs.count, removed: 0, bytesRead: 0,
            bytesWritten: 0, contentBytes: replay.contentBytes, archiveBytes: replay.archiveBytes, seconds: seconds)
    }

    /// The `build --json` document: odrpack-manifest.json's members, then the diagnostics and what was done.
    /// Nil when the manifest cannot be read as written.
    package func json() -> String? {
        guard let data = FileManager.default.contents(atPath: manifestPath) else { return nil }
        let manifest = String(decoding: data, as: UTF8.self)
        let extra = JSONValue.object([
            ("diagnostics", DiagnosticsDocument.json(replay.diagnostics)),
            ("build", .object([("written", .strings([])), ("reused", .strings(packIDs)), ("removed", .strings([]))])),
        ]).serialized()
        guard manifest.hasPrefix("{\n"), manifest.hasSuffix("\n}\n") else { return nil }
        return String(manifest.dropLast(3)) + ",\n" + String(extra.dropFirst(2))
    }
}
