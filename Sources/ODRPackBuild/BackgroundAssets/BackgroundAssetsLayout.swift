/// The names a Background Assets build writes under its output folder (docs/background-assets.md).
package enum BackgroundAssetsLayout {
    package static let folder = "BackgroundAssets"
    static let tagsFile = "AssetPackTags.json"
    /// `hosting: self` only: what to upload to the web server.
    static let siteFolder = "site"
    static let downloadManifestFile = "download-manifest.json"

    /// `BackgroundAssets/<id>.aar`, relative to the build folder.
    static func archivePath(of assetPackID: String) -> String { folder + "/" + archiveName(of: assetPackID) }
    static func archiveName(of assetPackID: String) -> String { assetPackID + ".aar" }
    static func manifestName(of assetPackID: String) -> String { assetPackID + ".json" }
    /// `<id>-<first 16 hex digits of the contentHash>`: a self-hosted pack's immutable name in `site/` and its URL.
    static func siteName(of assetPackID: String, contentHash: String) -> String {
        assetPackID + "-" + contentHash.prefix(16)
    }
}
