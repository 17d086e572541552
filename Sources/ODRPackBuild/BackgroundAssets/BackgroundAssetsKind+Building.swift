import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// A Background Assets build (docs/background-assets.md): always planned, its packs made by Apple's packager through
/// `BackgroundAssetsOutput`, its versions read from the folder's last manifest.
extension BackgroundAssetsKind: PackFormatBuilding {
    var checksUpToDate: Bool { false }
    var packagesByTextPath: Bool { true }
    func recordsReplay(_ options: BuildOptions) -> Bool { false }
    /// Apple's packager reads the files, not odrpack.
    func writersReadEveryResource(_ options: BuildOptions) -> Bool { false }
    var ownershipReadsManifest: Bool { true }

    func claims(packFileName: String) -> Bool { packFileName.hasSuffix(".aar") }

    /// Without a manifest: each archive still as the state recorded it brings its `<id>.json` and `AssetPackTags.json`
    /// with it, and each `site/` file still as recorded brings the download manifest. A read manifest names them all.
    func ownedByState(_ state: BuildState, outputPath: String, held: Bool) -> Set<PathKey> {
        guard !held else { return [] }
        let output = FilePath(outputPath)
        let folder = FilePath(packsFolder)
        var owned: Set<PathKey> = []
        for record in state.packs.values where !record.archiveStamp.isEmpty && claims(packFileName: record.fileName) {
            let relative = folder.joined(record.fileName)
            guard BuildState.packStamp(at: output.joined(relative.string)) == record.archiveStamp else {
                continue
            }
            owned.insert(relative.key)
            owned.insert(folder.joined(record.fileName.dropLast(4) + ".json").key)
            owned.insert(folder.joined(BackgroundAssetsLayout.tagsFile).key)
        }
        let site = BackgroundAssetsLayout.siteFolder + "/"
        for (key, stamp) in state.outputs
        where key.hasPrefix(site) && BuildState.stamp(at: output.joined(folder.joined(key).string)) == stamp {
            owned.insert(folder.joined(key).key)
            owned.insert(
                folder.joined(BackgroundAssetsLayout.siteFolder).joined(BackgroundAssetsLayout.downloadManifestFile).key
            )
        }
        return owned
    }

    /// Resolves the packager (`--ba-package`, else `ba-package` or `xcrun ba-package`), running its `--version` once.
    func prepare(_ options: BuildOptions) throws -> any FormatBuild {
        BackgroundAssetsBuild(
            packager: try BackgroundAssetsPackager.resolve(
                command: options.backgroundAssetsPackager, environment: options.environment))
    }
}
