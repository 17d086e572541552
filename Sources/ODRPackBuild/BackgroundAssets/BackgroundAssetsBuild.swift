import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// A Background Assets build: the packager resolved before the lock, and the live download manifest (`--published`)
/// its check reads, which numbers the packs' versions.
struct BackgroundAssetsBuild: FormatBuild {
    let packager: BackgroundAssetsPackager
    var published: PublishedDownloadManifest?

    /// The options the hosting needs and `ba-pack-dropped` for every published pack this build no longer makes.
    mutating func check(_ plan: PackPlan, options: BuildOptions) throws -> [Diagnostic] {
        let checked = try Self.checkHosting(plan, options: Self.resolved(options, plan))
        published = checked.published
        return checked.diagnostics
    }

    func output(plan: PackPlan, options: BuildOptions, rootPath: String, transaction: BuildFolderTransaction) throws
        -> any PackOutput
    {
        try BackgroundAssetsOutput(
            plan: plan, options: Self.resolved(options, plan), packager: packager, published: published,
            rootPath: rootPath,
            transaction: transaction)
    }

    /// The options with the manifest's `url-prefix` where the command line gives none (docs/background-assets.md).
    static func resolved(_ options: BuildOptions, _ plan: PackPlan) -> BuildOptions {
        var options = options
        if options.urlPrefix == nil { options.urlPrefix = plan.backgroundAssets.urlPrefix }
        return options
    }

    /// The options a Background Assets build's hosting needs (docs/background-assets.md), the live download manifest
    /// (`--published`, read once here), and `ba-pack-dropped` for every pack it lists that this build does not make.
    /// - Throws: `ODRPackError.usage` (exit 64) for options that do not fit the hosting; exit 2 for an unreadable file.
    static func checkHosting(_ plan: PackPlan, options: BuildOptions) throws
        -> (diagnostics: [Diagnostic], published: PublishedDownloadManifest?)
    {
        guard plan.backgroundAssets.hosting == .self else {
            if options.urlPrefix != nil {
                throw ODRPackError.usage(
                    """
                    --url-prefix does not apply to a Background Assets build with hosting apple: App Store Connect \
                    hosts the packs; leave it out, or set 'hosting: self' in the manifest's background-assets section
                    """
                )
            }
            if options.publishedPath != nil {
                throw ODRPackError.usage(
                    """
                    --published applies to self-hosted Background Assets builds only (hosting: self): App Store \
                    Connect numbers Apple-hosted versions itself
                    """
                )
            }
            return ([], nil)
        }
        guard let prefix = options.urlPrefix else {
            throw ODRPackError.usage(
                """
                the manifest's background-assets hosting is self, so the build needs --url-prefix https://host/path \
                (or 'url-prefix' in the manifest's background-assets section): where site/ will be served from (the \
                app's BAManifestURL is URL/download-manifest.json)
                """
            )
        }
        if let problem = URLPrefix.problem(prefix, requireHTTPS: true) { throw ODRPackError.usage(problem) }
        guard let publishedPath = options.publishedPath else { return ([], nil) }
        let published = try PublishedDownloadManifest.load(FilePath(publishedPath))
        let built = Set(plan.packs.map(\.assetPackID))
        let dropped = published.packs.keys.filter { !built.contains($0) }.sorted().map { id -> Diagnostic in
            .warning(
                .baPackDropped,
                """
                the live download manifest '\(publishedPath)' lists asset pack '\(id)', which this build no longer \
                makes: devices delete packs the manifest stops listing, also for app versions already installed; keep \
                its tags if apps still use it
                """,
                subject: id)
        }
        return (dropped, published)
    }
}
