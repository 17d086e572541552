import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// A Background Assets build's output (docs/background-assets.md): `BackgroundAssets/<id>.json` and `<id>.aar` per pack,
/// `AssetPackTags.json`, for `hosting: self` the `site/` folder, and odrpack-manifest.json (last). A pack's archive
/// is made again only when its content, its ba-package manifest or the packager command changed.
struct BackgroundAssetsOutput: PackOutput {
    let plan: PackPlan
    let options: BuildOptions
    let packager: BackgroundAssetsPackager
    let rootPath: String
    let outputPath: String
    let packsPath: String
    /// Each pack's ba-package manifest, by pack index.
    let manifests: [String]
    let fileNames: [String]
    let archiveKeys: [String]
    /// Where versions come from: nothing (new folder, `--reset-versions`), the folder's last build, or the live
    /// download manifest (`--published`).
    let versionSource: VersionSource

    enum VersionSource {
        case none
        /// Each pack's version and contentHash, by pack id, in the folder's last Background Assets build.
        case previousBuild([String: (version: Int64, contentHash: String)])
        case published(PublishedDownloadManifest)
    }

    /// - Parameter published: the live download manifest (`--published`), the source of versions when given.
    /// - Throws: exit 2 when the folder's previous manifest exists but cannot be read (without `--reset-versions`).
    init(
        plan: PackPlan, options: BuildOptions, packager: BackgroundAssetsPackager,
        published: PublishedDownloadManifest?,
        rootPath: String
    ) throws {
        self.plan = plan
        self.options = options
        self.packager = packager
        self.rootPath = rootPath
        outputPath = options.outputPath
        packsPath = outputPath + "/" + BackgroundAssetsLayout.folder
        let platforms = plan.backgroundAssets.platforms ?? []
        manifests = plan.packs.map { pack in
            BackgroundAssetsDocuments.packageManifest(
                assetPackID: pack.assetPackID, policy: plan.downloadPolicy(of: pack),
                paths: pack.files.map(\.path), platforms: platforms)
        }
        fileNames = plan.packs.map { BackgroundAssetsLayout.archiveName(of: $0.assetPackID) }
        archiveKeys = manifests.map { options.archiveKey(pack: Data($0.utf8), packager: packager.template) }
        if let published {
            versionSource = .published(published)
        } else if options.resetVersions {
            versionSource = .none
        } else {
            versionSource = .previousBuild(try Self.versions(inBuildAt: options.outputPath))
        }
    }

    /// What the folder's current odrpack-manifest.json says of each pack's version; nothing for a new folder or an
    /// ODR build's.
    /// - Throws: `ODRPackError.unusableInput` when the manifest is there but unreadable: versions would silently
    ///   restart at 0 and go backwards on devices.
    static func versions(inBuildAt folder: String) throws -> [String: (version: Int64, contentHash: String)] {
        let path = folder + "/" + BuildManifest.fileName
        guard case .success = LocalFileSystem().status(path, followingLinks: false) else { return [:] }
        let manifest: BuildManifest
        do {
            manifest = try BuildManifest.load(path).manifest
        } catch {
            throw ODRPackError.unusableInput(
                """
                the previous build's \(BuildManifest.fileName) in '\(folder)' cannot be read (\(error)), so the packs' \
                versions are unknown and would restart at 0: restore it, or pass --reset-versions to start every pack \
                at version 0
                """
            )
        }
        guard manifest.format == .backgroundAssets else { return [:] }
        var versions: [String: (version: Int64, contentHash: String)] = [:]
        for pack in manifest.packs {
            if let version = pack.version, let contentHash = pack.contentHash {
                versions[pack.id] = (version, contentHash)
            }
        }
        return versions
    }

    func prepare() throws {
        var seen: [String: AssetPack] = [:]
        for pack in plan.packs {
            if let other = seen.updateValue(pack, forKey: pack.assetPackID) {
                throw ODRPackError.unbuildable(
                    """
                    packs '\(other.shortName)' and '\(pack.shortName)' have the same asset pack id \
                    '\(pack.assetPackID)' (their tags differ only in characters Background Assets cannot use): rename \
                    one of the tags
                    """
                )
            }
        }
        for path in [outputPath, packsPath] { try OutputFolder.makeFolder(path) }
    }

    /// A hidden folder in the build folder, outside `BackgroundAssets/`: nothing a previous manifest names changes
    /// before the commit.
    func temporaryPath(forPack index: Int) -> String { outputPath + "/" + TemporaryName.beside(fileNames[index]) }

    /// Apple's packager writes the archives: nothing of an old one is copied.
    func reusableEntries(toWrite: [Int], fileDigests: [[FileDigest?]], previous: BuildState) -> EntryReuse {
        EntryReuse()
    }

    func makeWriter(spares: CompressorPool, entries: EntryReuse) -> any PackFormatWriter {
        BackgroundAssetsPackWriter(packager: packager, manifests: manifests, rootPath: rootPath)
    }

    /// The commit compares every small file's bytes itself and copies only what changed.
    func isUnchanged(facts: [String: PackArchiveFacts], previous: BuildState) -> Bool { false }

    /// Each pack's version (by pack id), and the download sizes of the packs already live at their address.
    /// Without `--published`: 0 for a pack new to the folder, the previous version + 1 when its content changed, else
    /// the previous one. With it: the live version for a pack whose address the file lists, its version + 1 for a pack
    /// it lists at another address, 0 for one it does not list.
    /// - Throws: exit 2 when a version cannot be incremented (Int64.max).
    func versions(_ facts: [String: PackArchiveFacts]) throws -> (versions: [String: Int64], live: [String: Int64]) {
        var versions: [String: Int64] = [:]
        var live: [String: Int64] = [:]
        func next(_ version: Int64, _ pack: AssetPack) throws -> Int64 {
            guard version < Int64.max else {
                throw ODRPackError.unusableInput(
                    """
                    pack '\(pack.assetPackID)' is at version \(version), the largest there is: it cannot get a newer \
                    one; use new tags for new content
                    """
                )
            }
            return version + 1
        }
        for pack in plan.packs {
            let contentHash = facts[pack.id]?.contentHash ?? ""
            switch versionSource {
            case .none:
                versions[pack.id] = 0
            case .previousBuild(let previous):
                guard let before = previous[pack.id] else {
                    versions[pack.id] = 0
                    continue
                }
                versions[pack.id] = contentHash == before.contentHash ? before.version : try next(before.version, pack)
            case .published(let published):
                guard let entry = published.packs[pack.assetPackID] else {
                    versions[pack.id] = 0
                    continue
                }
                let url = BackgroundAssetsDocuments.packURL(
                    options.urlPrefix ?? "",
                    BackgroundAssetsLayout.siteName(of: pack.assetPackID, contentHash: contentHash))
                if entry.url == url {
                    versions[pack.id] = entry.version
                    live[pack.assetPackID] = entry.downloadSize
                } else {
                    versions[pack.id] = try next(entry.version, pack)
                }
            }
        }
        return (versions, live)
    }

    func commit(facts: [String: PackArchiveFacts], written: [Int], previous: BuildState) throws
        -> (manifest: BuildManifest, removed: [String], state: BuildState)
    {
        let hosting = plan.backgroundAssets.hosting
        let (versions, live) = try versions(facts)
        let manifest = BuildManifest(
            plan: plan, archives: facts, versions: versions, urlPrefix: options.urlPrefix,
            packager: (packager.template, packager.version))
        var state = BuildState.make(
            plan, rootPath: rootPath, facts: facts, fileNames: fileNames, archiveKeys: archiveKeys)
        let sitePath = packsPath + "/" + BackgroundAssetsLayout.siteFolder
        let (removed, _) = try OutputCommit(outputPath: outputPath).run(
            packsWritten: !written.isEmpty,
            place: {
                for index in written {
                    let folder = temporaryPath(forPack: index)
                    try OutputFolder.moveIntoPlace(
                        folder + "/" + fileNames[index], to: packsPath + "/" + fileNames[index])
                    try OutputFolder.remove(folder)
                }
                let removed = try removeStale()
                var copied: [String] = []
                if hosting == .self {
                    copied = try copySite(
                        at: sitePath, manifest: manifest, written: Set(written), live: live, previous: previous,
                        state: &state)
                } else {
                    try OutputFolder.remove(sitePath)
                }
                // Every archive and its site copy is on stable storage before a document names it.
                return OutputCommit.Placement(
                    removed: removed, durable: written.map { packsPath + "/" + fileNames[$0] } + copied)
            },
            make: {
                // Every pack's <id>.json (rewritten where it was edited), AssetPackTags.json and the download
                // manifest; an ODR build's output, when this folder held one, goes.
                var documents = OutputCommit.Documents(manifest: manifest.serializedBytes())
                for (index, pack) in plan.packs.enumerated() {
                    documents.files.append(
                        (
                            packsPath + "/" + BackgroundAssetsLayout.manifestName(of: pack.assetPackID),
                            Data(manifests[index].utf8)
                        ))
                }
                documents.files.append(
                    (
                        packsPath + "/" + BackgroundAssetsLayout.tagsFile,
                        Data(BackgroundAssetsDocuments.assetPackTags(manifest).utf8)
                    ))
                if hosting == .self, let urlPrefix = options.urlPrefix {
                    documents.files.append(
                        (
                            sitePath + "/" + BackgroundAssetsLayout.downloadManifestFile,
                            Data(
                                BackgroundAssetsDocuments.downloadManifest(manifest, urlPrefix: urlPrefix, live: live)
                                    .utf8)
                        ))
                }
                documents.removals = [
                    AppleManifests.packsFolder, AppleManifests.onDemandResourcesFile, AppleManifests.templateFile,
                    AppleManifests.manifestFile,
                ].map { outputPath + "/" + $0 }
                return (documents, ())
            },
            finish: { _ in try state.takeArchiveStamps(packsPath: packsPath) })
        return (manifest, removed, state)
    }

    /// `site/<id>-<16 hex of contentHash>` (the archive's bytes) for every pack not already live at that address,
    /// beside `download-manifest.json`: what to upload. Changed content gets a new name, so a device or a CDN never
    /// sees other bytes at an address it knows. An archive is copied when its pack was written or its copy is not as
    /// the last build left it; returns the copies made.
    private func copySite(
        at sitePath: String, manifest: BuildManifest, written: Set<Int>, live: [String: Int64],
        previous: BuildState, state: inout BuildState
    ) throws -> [String] {
        try OutputFolder.makeFolder(sitePath)
        var keep: Set<String> = [BackgroundAssetsLayout.downloadManifestFile]
        var copied: [String] = []
        for (index, pack) in plan.packs.enumerated() where live[pack.assetPackID] == nil {
            let name = BackgroundAssetsLayout.siteName(
                of: pack.assetPackID, contentHash: manifest.packs[index].contentHash ?? "")
            keep.insert(name)
            let copy = sitePath + "/" + name
            let key = BackgroundAssetsLayout.siteFolder + "/" + name
            let stamp = BuildState.stamp(atPath: copy)
            if written.contains(index) || stamp == nil || stamp != previous.outputs[key] {
                let temporary = TemporaryName.path(beside: copy)
                try FileCopy.copy(packsPath + "/" + fileNames[index], to: temporary)
                try OutputFolder.moveIntoPlace(temporary, to: copy)
                copied.append(copy)
            }
            state.outputs[key] = BuildState.stamp(atPath: copy)
        }
        for name in try OutputFolder.names(in: sitePath) where !keep.contains(name) {
            try OutputFolder.remove(sitePath + "/" + name)
        }
        return copied
    }

    /// Removes the archives and manifests of packs that no longer exist, and leftovers of interrupted builds.
    private func removeStale() throws -> [String] {
        var keep = Set(fileNames.map(PathKey.init))
        for pack in plan.packs { keep.insert(PathKey(BackgroundAssetsLayout.manifestName(of: pack.assetPackID))) }
        keep.insert(PathKey(BackgroundAssetsLayout.tagsFile))
        keep.insert(PathKey(BackgroundAssetsLayout.siteFolder))
        var removed: [String] = []
        for name in try OutputFolder.names(in: packsPath).sorted(by: { $0.precedesByCodePoint($1) })
        where !keep.contains(PathKey(name))
            && (name.hasSuffix(".aar") || name.hasSuffix(".json") || name.hasPrefix(TemporaryName.marker))
        {
            try OutputFolder.remove(packsPath + "/" + name)
            if name.hasSuffix(".aar") { removed.append(name) }
        }
        return removed
    }

    /// Removes this build's temporary pack folders: nothing live was touched before the commit.
    func removeTemporaryFiles() {
        try? OutputFolder.removeTemporaries(in: outputPath, prefix: TemporaryName.processPrefix)
    }
}
