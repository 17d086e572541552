/// A tag with what a device downloads when the app asks for it.
public struct TagSummary: Sendable {
    public var name: String
    public var category: DownloadCategory
    /// The sum of the sizes of every pack whose tag set contains the tag.
    public var size: Int64
    /// Ids of those packs, sorted.
    public var packs: [String]
}
