import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// A Background Assets build is verified by `BackgroundAssetsVerifier`.
extension BackgroundAssetsKind: PackFormatVerifying {
    func verify(_ manifest: BuildManifest, folder: FilePath, progress: ProgressBar) throws -> BuildVerifier.Report {
        try BackgroundAssetsVerifier(manifest: manifest, folder: folder, progress: progress).verify()
    }
}
