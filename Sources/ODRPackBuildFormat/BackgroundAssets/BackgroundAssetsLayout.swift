import ODRPackPlatform

/// The names a Background Assets build writes under its output folder (docs/background-assets.md).
package enum BackgroundAssetsLayout {
    package static let folder = "BackgroundAssets"
    package static let tagsFile = "AssetPackTags.json"
    /// `hosting: self` only: what to upload to the web server.
    package static let siteFolder = "site"
    package static let downloadManifestFile = "download-manifest.json"

    /// `BackgroundAssets/<id>.aar`, relative to the build folder.
    package static func archivePath(of assetPackID: String) -> String {
        folder.slashJoined(archiveName(of: assetPackID))
    }
    package static func archiveName(of assetPackID: String) -> String { assetPackID + ".aar" }
    package static func manifestName(of assetPackID: String) -> String { assetPackID + ".json" }
    /// `<id>-<first 16 hex digits of the contentHash>`: a self-hosted pack's immutable name in `site/` and its URL.
    package static func siteName(of assetPackID: String, contentHash: String) -> String {
        assetPackID + "-" + contentHash.prefix(16)
    }
}
