/// One asset pack: all resources that share exactly one tag set.
package struct AssetPack: Sendable {
    package var id: String
    package let fileName: String
    /// Sorted the way Swift sorts strings.
    package var tags: [String]
    package let category: DownloadCategory
    package var priority: Double?
    package var size: Int64
    /// Sorted by path in code-point order; shares the resolution's storage.
    package var files: PackFiles
    /// The first manifest entry that put a file here, for diagnostics that point at the manifest.
    var firstEntry: Int?

    /// The Background Assets asset pack id (docs/background-assets.md).
    package var assetPackID: String { BackgroundAssetsIdentity.assetPackID(tags: tags) }

    /// The readable short form, tags joined with "+".
    package var shortName: String { tags.joined(separator: "+") }
}
