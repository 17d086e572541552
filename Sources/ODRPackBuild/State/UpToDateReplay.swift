import ODRPackCore

/// What an up-to-date build prints: the last build's diagnostics and a summary with nothing written.
package struct UpToDateReplay {
    let replay: BuildState.Replay
    let packIDs: [String]
    /// odrpack-manifest.json, whose metadata the check found unchanged.
    let manifestPath: String

    package var diagnostics: [Diagnostic] { replay.diagnostics }
    /// The warnings the manifest allowed (docs/manifest.md#allowed-warnings).
    package var allowed: [Diagnostic] { replay.allowed }

    package func summary(seconds: Double) -> BuildSummary {
        BuildSummary(
            packs: packIDs.count, written: 0, reused: packIDs.count, removed: 0, bytesRead: 0,
            bytesWritten: 0, contentBytes: replay.contentBytes, archiveBytes: replay.archiveBytes, seconds: seconds)
    }

    /// The packs it reports as reused: all of them.
    package var reused: [String] { packIDs }
}
