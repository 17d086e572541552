/// The names a Background Assets build writes under its output folder (SPEC 12).
public enum BackgroundAssetsLayout {
    public static let folder = "BackgroundAssets"
    public static let tagsFile = "AssetPackTags.json"
    /// `hosting: self` only: what to upload to the web server.
    public static let siteFolder = "site"
    public static let downloadManifestFile = "download-manifest.json"

    /// `BackgroundAssets/<id>.aar`, relative to the build folder.
    public static func archivePath(of assetPackID: String) -> String { folder + "/" + archiveName(of: assetPackID) }
    public static func archiveName(of assetPackID: String) -> String { assetPackID + ".aar" }
    public static func manifestName(of assetPackID: String) -> String { assetPackID + ".json" }
}
