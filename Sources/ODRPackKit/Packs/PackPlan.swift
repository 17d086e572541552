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

    public var resourceFiles: Int { packs.reduce(0) { $0 + $1.files.count } }
}
