import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// What `verify` asks a pack format (docs/architecture.md#pack-formats): its own checks of every pack and document
/// of a build folder against odrpack-manifest.json. `OnDemandResourcesKind` and `BackgroundAssetsKind` conform in this
/// module; the checks every format shares (the journal, the manifest's own figures) stay in `BuildVerifier`.
protocol PackFormatVerifying: PackFormatKind {
    /// Verifies the build in `folder` that `manifest` describes, counting each pack's bytes on `progress`.
    func verify(_ manifest: BuildManifest, folder: FilePath, progress: ProgressBar) throws -> BuildVerifier.Report
}

extension PackFormat {
    /// This format's verify conformance. Every kind has one (`PackFormatKindTests` checks), so the cast cannot fail
    /// but for a format added without its verify side.
    var verifying: any PackFormatVerifying {
        guard let verifying = kind as? any PackFormatVerifying else {
            preconditionFailure("the pack format '\(rawValue)' has no PackFormatVerifying conformance")
        }
        return verifying
    }
}
