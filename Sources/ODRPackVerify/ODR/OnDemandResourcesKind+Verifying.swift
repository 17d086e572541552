import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// An ODR build is verified by `OnDemandResourcesVerifier`, in either layout.
extension OnDemandResourcesKind: PackFormatVerifying {
    func verify(_ manifest: BuildManifest, folder: FilePath, progress: ProgressBar) throws -> BuildVerifier.Report {
        try OnDemandResourcesVerifier(manifest: manifest, folder: folder, progress: progress).verify()
    }
}
