/// The asset packs a manifest makes, with every size the store's limits are about.
package struct PackPlan: Sendable {
    package let bundleID: String
    package let profileName: String
    package let limits: LimitProfile
    /// In manifest order, duplicates removed.
    package let initialInstallTags: [String]
    package let prefetchOrder: [String]
    package let appBundleFiles: Int
    package let appBundleSize: Int64
    /// False with `untagged: ignore`: no app-bundle line, `"appBundle": null` (docs/manifest.md#untagged-files).
    package var countsAppBundle = true
    /// Sorted by id.
    package var packs: [AssetPack]
    /// Sorted by name.
    package var tags: [TagSummary]
    package let totalSize: Int64
    package let initialInstallSize: Int64
    package let initialPrefetchSize: Int64
    /// What the plan is for: ODR packs, or Background Assets packs from the same tag sets (docs/background-assets.md).
    package var format: PackFormat
    /// The manifest's `background-assets` section with its platforms resolved for the profile.
    package var backgroundAssets = BackgroundAssetsSettings()
    /// An ODR plan's platform (docs/commands.md#platform): only the files of entries for it are packed. Nil for a
    /// Background Assets plan, whose packs each name their platforms.
    package var platform: String?
    /// The languages the manifest gives files (`language`, `{language}`), sorted: an ODR plan says its packs hold
    /// them all (docs/background-assets.md#languages).
    package var manifestLanguages: [String] = []
    /// How many files of entries for other platforms only an ODR plan leaves out (docs/commands.md#platform).
    package var otherPlatformFiles = 0
    /// The sums that do not fit a signed 64-bit integer (held at Int64.max above), each said in words: a pack's, a
    /// tag's, a total. Each is a `size-overflow` error (docs/build-output.md, Bounded).
    package var overflowingSums: [(what: String, subject: String?)] = []

    package var resourceFiles: Int { packs.reduce(0) { $0 + $1.files.count } }

    /// The languages of the localized packs, sorted (docs/background-assets.md#languages).
    package var languages: [String] { Set(packs.compactMap(\.language)).sorted() }

    /// A pack's Background Assets download policy, from its category and the manifest's events.
    package func downloadPolicy(of pack: AssetPack) -> DownloadPolicy {
        DownloadPolicy(category: pack.category, events: backgroundAssets.events)
    }
}
