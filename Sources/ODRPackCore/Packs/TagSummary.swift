/// A tag with what a device downloads when the app asks for it.
package struct TagSummary: Sendable {
    package let name: String
    package let category: DownloadCategory
    /// The sum of the sizes of every pack whose tag set contains the tag.
    package var size: Int64
    /// Ids of those packs, sorted.
    package var packs: [String]
}
