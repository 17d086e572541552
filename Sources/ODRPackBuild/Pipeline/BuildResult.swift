import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// What a build did.
package struct BuildResult: Sendable {
    package let plan: PackPlan
    /// odrpack-manifest.json as the build wrote it, made when asked for (docs/build-output.md#bounded): the build itself
    /// never holds it whole with every file.
    package var manifest: BuildManifest { makeManifest() }
    let makeManifest: @Sendable () -> BuildManifest
    /// odrpack-manifest.json as written, opened while the build held its lock, when the pipeline was asked for the
    /// `--json` document: printed a chunk at a time (docs/build-output.md#bounded), where `manifest` holds every file.
    package var writtenManifest: StreamedDocument?
    var facts: [String: PackArchiveFacts]
    package let options: BuildOptions
    package let written: [String]
    package let reused: [String]
    package let removed: [String]
    package let bytesRead: Int64
    package let bytesWritten: Int64
    /// What the next build into the folder starts from.
    var state: BuildState
    /// What the build found while writing (`output-foreign-file`), for the build's diagnostics.
    var diagnostics: [Diagnostic] = []
    /// The warnings of `diagnostics`' kind that the manifest allows (docs/manifest.md#allowed-warnings).
    var allowed: [Diagnostic] = []
    /// Why that state could not be saved, when it could not: the output is complete, the next build starts cold.
    package var stateWarning: String?

    /// The bytes of all the pack archives.
    package var archiveBytes: Int64 { facts.values.lazy.map(\.archiveSize).saturatingSum }

    /// What the build did, with the whole command's time (the caller's clock: planning counts too).
    package func summary(seconds: Double) -> BuildSummary {
        BuildSummary(
            packs: plan.packs.count, written: written.count, reused: reused.count, removed: removed.count,
            bytesRead: bytesRead, bytesWritten: bytesWritten, contentBytes: plan.totalSize,
            archiveBytes: archiveBytes, seconds: seconds)
    }
}

/// A warning the build found before writing anything (`output-foreign-file`) under `--warnings-as-errors`: the build
/// stops there, writing nothing, exactly as for an error (docs/commands.md#scripts).
struct StoppedByWarnings: Error {
    let diagnostics: [Diagnostic]
    let allowed: [Diagnostic]
}
