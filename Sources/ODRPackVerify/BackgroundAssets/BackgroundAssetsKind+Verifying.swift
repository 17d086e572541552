import ODRPackBuildFormat
import ODRPackCore

/// A Background Assets build is verified by `BackgroundAssetsVerifier`.
extension BackgroundAssetsKind: PackFormatVerifying {
    func verify(_ manifest: BuildManifest, folder: String, progress: ProgressBar) throws -> BuildVerifier.Report {
        try BackgroundAssetsVerifier(manifest: manifest, folder: folder, progress: progress).verify()
    }
}
