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
    /// Background Assets only: the pack's language, nil when it is not localized (docs/background-assets.md#languages).
    package var language: String? = nil
    /// Background Assets only: the platforms the pack is for, in the order iOS, macOS, tvOS, visionOS; nil for an ODR
    /// pack (docs/background-assets.md#platforms).
    package var platforms: [String]? = nil
    /// What follows the tag set's id in both of the pack's ids: `-` and its platforms when it is not for every
    /// platform of the manifest, then `-` and its language when it is localized; empty otherwise
    /// (`BackgroundAssetsIdentity.suffix`).
    package var idSuffix = ""

    /// The Background Assets asset pack id (docs/background-assets.md).
    package var assetPackID: String { BackgroundAssetsIdentity.assetPackID(tags: tags) + idSuffix }

    /// The readable short form, tags joined with "+".
    package var shortName: String { tags.joined(separator: "+") }
}
