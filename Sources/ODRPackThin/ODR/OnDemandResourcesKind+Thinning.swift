import ODRPackBuildFormat
import ODRPackFormats
import ODRPackPlatform

/// An ODR build is wired by `OnDemandResourcesThinner`: Apple's plists into the app, the packs embedded or hosted.
extension OnDemandResourcesKind: PackFormatThinning {
    func checkApp(info: [String: PropertyListValue], appPath: String, manifest: BuildManifest) throws {
        try AppPlatform.checkODR(info: info, app: appPath, buildPlatform: manifest.platform)
    }

    func plan(
        _ thinner: AppThinner, manifest: BuildManifest, buildFolder: FilePath, location: AppThinner.Location,
        infoPath: FilePath
    ) throws -> (AppThinner.Result, AppTransaction) {
        try OnDemandResourcesThinner(thinner: thinner, manifest: manifest, buildFolder: buildFolder).plan(location)
    }
}
