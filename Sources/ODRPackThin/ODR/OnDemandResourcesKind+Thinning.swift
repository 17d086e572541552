import ODRPackBuildFormat
import ODRPackPlatform

/// An ODR build is wired by `OnDemandResourcesThinner`: Apple's plists into the app, the packs embedded or hosted.
extension OnDemandResourcesKind: PackFormatThinning {
    func plan(
        _ thinner: AppThinner, manifest: BuildManifest, buildFolder: FilePath, location: AppThinner.Location,
        infoPath: FilePath
    ) throws -> (AppThinner.Result, AppTransaction) {
        try OnDemandResourcesThinner(thinner: thinner, manifest: manifest, buildFolder: buildFolder).plan(location)
    }
}
