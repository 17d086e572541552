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
    /// This format's verify side: verify's one switch on the format (docs/architecture.md#pack-formats). It is
    /// exhaustive, so a format added to `PackFormat` does not compile until verify handles it, and each case is a type
    /// the compiler checks conforms.
    var verifying: any PackFormatVerifying {
        switch self {
        case .odr: OnDemandResourcesKind()
        case .backgroundAssets: BackgroundAssetsKind()
        }
    }
}
