import ODRPackBuildFormat
import ODRPackPlatform

/// A Background Assets build is wired by `BackgroundAssetsThinner`: its keys in the app's Info.plist.
extension BackgroundAssetsKind: PackFormatThinning {
    func plan(
        _ thinner: AppThinner, manifest: BuildManifest, buildFolder: FilePath, location: AppThinner.Location,
        infoPath: FilePath
    ) throws -> (AppThinner.Result, AppTransaction) {
        try BackgroundAssetsThinner(thinner: thinner, manifest: manifest, buildFolder: buildFolder)
            .plan(location, info: infoPath)
    }
}
