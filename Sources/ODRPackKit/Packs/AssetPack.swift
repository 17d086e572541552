/// When a device downloads a pack or a tag (SPEC 3.8).
public enum DownloadCategory: String, Sendable, Codable, Comparable {
    case initialInstall = "initial-install"
    case prefetch
    case onDemand = "on-demand"

    private var rank: Int { self == .initialInstall ? 0 : self == .prefetch ? 1 : 2 }
    public static func < (lhs: DownloadCategory, rhs: DownloadCategory) -> Bool { lhs.rank < rhs.rank }
}

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

    /// The readable short form, tags joined with "+".
    public var shortName: String { tags.joined(separator: "+") }
}

/// A tag with what a device downloads when the app asks for it.
public struct TagSummary: Sendable {
    public var name: String
    public var category: DownloadCategory
    /// The sum of the sizes of every pack whose tag set contains the tag.
    public var size: Int64
    /// Ids of those packs, sorted.
    public var packs: [String]
}
