import ODRPackBuildFormat
import ODRPackFormats
import ODRPackPlatform

/// A Background Assets build is wired by `BackgroundAssetsThinner`: its keys in the app's Info.plist.
extension BackgroundAssetsKind: PackFormatThinning {
    /// Any app takes a Background Assets build: its packs name their own platforms.
    func checkApp(info: [String: PropertyListValue], appPath: String, manifest: BuildManifest) throws {}

    func plan(
        _ thinner: AppThinner, manifest: BuildManifest, buildFolder: FilePath, location: AppThinner.Location,
        infoPath: FilePath
    ) throws -> (AppThinner.Result, AppTransaction) {
        try BackgroundAssetsThinner(thinner: thinner, manifest: manifest, buildFolder: buildFolder)
            .plan(location, info: infoPath)
    }
}
