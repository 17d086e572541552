import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// What `thin` asks a pack format (docs/architecture.md#pack-formats): how a build of it wires the app, worked out
/// in full before the one transaction that changes the app. `OnDemandResourcesKind` and `BackgroundAssetsKind`
/// conform in this module; what both formats share (the bundle id, removing the packed files' copies) stays in
/// `AppThinner`.
protocol PackFormatThinning: PackFormatKind {
    /// Refuses an app (its Info.plist's `info`, at `appPath` as given) that a build of this format, `manifest`, cannot
    /// be wired into, before anything is staged: an ODR build's app must be of its platform.
    func checkApp(info: [String: PropertyListValue], appPath: String, manifest: BuildManifest) throws
    /// What thinning the app at `location` (its Info.plist at `infoPath`) with the build in `buildFolder` finds, and
    /// the change that makes it.
    func plan(
        _ thinner: AppThinner, manifest: BuildManifest, buildFolder: FilePath, location: AppThinner.Location,
        infoPath: FilePath
    ) throws -> (AppThinner.Result, AppTransaction)
}

extension PackFormat {
    /// This format's thin side: thin's one switch on the format (docs/architecture.md#pack-formats). It is
    /// exhaustive, so a format added to `PackFormat` does not compile until thin handles it, and each case is a type
    /// the compiler checks conforms.
    var thinning: any PackFormatThinning {
        switch self {
        case .odr: OnDemandResourcesKind()
        case .backgroundAssets: BackgroundAssetsKind()
        }
    }
}
