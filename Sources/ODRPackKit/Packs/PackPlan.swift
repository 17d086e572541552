/// The asset packs a manifest makes, with every size the store's limits are about.
public struct PackPlan: Sendable {
    public var bundleID: String
    public var profileName: String
    public var limits: LimitProfile
    /// In manifest order, duplicates removed.
    public var initialInstallTags: [String]
    public var prefetchOrder: [String]
    public var appBundleFiles: Int
    public var appBundleSize: Int64
    /// Sorted by id.
    public var packs: [AssetPack]
    /// Sorted by name.
    public var tags: [TagSummary]
    public var totalSize: Int64
    public var initialInstallSize: Int64
    public var initialPrefetchSize: Int64
    /// What the plan is for: ODR packs, or Background Assets packs from the same tag sets (SPEC 12).
    public var format: PackFormat = .odr
    /// The manifest's `background-assets` section with its platforms resolved for the profile.
    public var backgroundAssets = BackgroundAssetsSettings()

    public var resourceFiles: Int { packs.reduce(0) { $0 + $1.files.count } }

    /// A pack's Background Assets download policy, from its category and the manifest's events.
    public func downloadPolicy(of pack: AssetPack) -> DownloadPolicy {
        DownloadPolicy(category: pack.category, events: backgroundAssets.events)
    }
}
