
/// One asset pack: all resources that share exactly one tag set.
public struct AssetPack: Sendable {
    public var id: String
    public var fileName: String
    /// Sorted the way Swift sorts strings.
    public var tags: [String]
    public var category: DownloadCategory
    public var priority: Double?
    public var size: Int64
    /// Sorted by path in code-point order.
    public var files: [ResolvedResource]
    /// The first manifest entry that put a file here, for diagnostics that point at the manifest.
    public var firstEntry: Int?

    /// The Background Assets asset pack id (SPEC 12).
    public var assetPackID: String { BackgroundAssetsIdentity.assetPackID(tags: tags) }

    /// The readable short form, tags joined with "+".
    public var shortName: String { tags.joined(separator: "+") }
}
