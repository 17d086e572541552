/// The names a Background Assets build writes under its output folder (SPEC 12).
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
}
