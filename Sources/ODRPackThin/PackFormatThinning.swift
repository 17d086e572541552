import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// What `thin` asks a pack format (docs/architecture.md#pack-formats): how a build of it wires the app, worked out
/// in full before the one transaction that changes the app. `OnDemandResourcesKind` and `BackgroundAssetsKind`
/// conform in this module; what both formats share (the bundle id, removing the packed files' copies) stays in
/// `AppThinner`.
protocol PackFormatThinning: PackFormatKind {
    /// What thinning the app at `location` (its Info.plist at `infoPath`) with the build in `buildFolder` finds, and
    /// the change that makes it.
    func plan(
        _ thinner: AppThinner, manifest: BuildManifest, buildFolder: FilePath, location: AppThinner.Location,
        infoPath: FilePath
    ) throws -> (AppThinner.Result, AppTransaction)
}

extension PackFormat {
    /// This format's thin conformance. Every kind has one (`PackFormatKindTests` checks), so the cast cannot fail but
    /// for a format added without its thin side.
    var thinning: any PackFormatThinning {
        guard let thinning = kind as? any PackFormatThinning else {
            preconditionFailure("the pack format '\(rawValue)' has no PackFormatThinning conformance")
        }
        return thinning
    }
}
