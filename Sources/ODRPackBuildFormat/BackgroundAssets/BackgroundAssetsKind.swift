import ODRPackCore
import ODRPackPlatform

/// Background Assets as a build folder holds them (docs/background-assets.md): `BackgroundAssets/<id>.aar` and
/// `<id>.json` per pack, `AssetPackTags.json`, and for `hosting: self` the `site/` folder.
package struct BackgroundAssetsKind: PackFormatKind {
    package init() {}

    package var format: PackFormat { .backgroundAssets }
    package var name: String { "Background Assets" }
    package var nameWithArticle: String { "a Background Assets" }
    package var shortName: String { "Background Assets" }
    package var packsFolder: String { BackgroundAssetsLayout.folder }
    package var folders: [String] {
        [packsFolder, FilePath(packsFolder).joined(BackgroundAssetsLayout.siteFolder).text]
    }
    package var packsTravelInApp: Bool { false }
    package var hasAssetPackIDs: Bool { true }

    package func packFile(bundleID: String, tags: [String]) -> String {
        BackgroundAssetsLayout.archivePath(of: BackgroundAssetsIdentity.assetPackID(tags: tags))
    }

    /// `AssetPackTags.json`, each pack's `<id>.json`, and for `hosting: self` the download manifest and each pack's
    /// `site/` archive.
    package func documents(of manifest: BuildManifest) -> [String] {
        let folder = FilePath(BackgroundAssetsLayout.folder)
        let site = folder.joined(BackgroundAssetsLayout.siteFolder)
        let selfHosted = manifest.backgroundAssets?.hosting == .self
        var names = [folder.joined(BackgroundAssetsLayout.tagsFile).text]
        if selfHosted { names.append(site.joined(BackgroundAssetsLayout.downloadManifestFile).text) }
        for pack in manifest.packs {
            guard let id = pack.assetPackId else { continue }
            names.append(folder.joined(BackgroundAssetsLayout.manifestName(of: id)).text)
            if selfHosted {
                names.append(
                    site.joined(BackgroundAssetsLayout.siteName(of: id, contentHash: pack.contentHash ?? "")).text)
            }
        }
        return names
    }
}
