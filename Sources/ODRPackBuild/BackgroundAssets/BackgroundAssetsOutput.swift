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
    /// The output folder, bytes and all (`BuildOptions.outputPath`).
    let outputPath: FilePath
    /// The build folder and its locations, from the transaction that holds it open.
    let folder: BuildFolder
    let packsFolder: FilePath
    /// Each pack's ba-package manifest, by pack index: written when the pack is (and by the commit), never held as text.
    let manifests: [StreamedDocument]
    let fileNames: [String]
    let archiveKeys: [String]
    /// Where versions come from: nothing (new folder, `--reset-versions`), the folder's last build, or the live
    /// download manifest (`--published`).
    let versionSource: VersionSource
    /// The folder open for writing and what in it the last build wrote: all the commit may replace or remove.
    let transaction: BuildFolderTransaction
    var ownership: OutputOwnership { transaction.ownership }
    var siteFolder: FilePath { packsFolder.joined(BackgroundAssetsLayout.siteFolder) }

    enum VersionSource {
        case none
        /// Each pack's version and contentHash, by pack id, in the folder's last Background Assets build.
        case previousBuild([String: (version: Int64, contentHash: String)])
        case published(PublishedDownloadManifest)
    }

    /// - Parameter published: the live download manifest (`--published`), the source of versions when given.
    /// - Parameter transaction: the folder open for writing, with its previous build (its manifest, or an interrupted
    ///   commit's journal), the source of versions otherwise.
    /// - Throws: exit 2 when the folder's previous manifest exists but cannot be read (without `--reset-versions`).
    init(
        plan: PackPlan, options: BuildOptions, packager: BackgroundAssetsPackager,
        published: PublishedDownloadManifest?, rootPath: String, transaction: BuildFolderTransaction
    ) throws {
        self.transaction = transaction
        self.plan = plan
        self.options = options
        self.packager = packager
        self.rootPath = rootPath
        outputPath = options.outputPath
        folder = transaction.folder.folder
        packsFolder = folder.packs(.backgroundAssets)
        let platforms = ApplePlatform.ordered(plan.backgroundAssets.platforms ?? [])
        manifests = plan.packs.map { pack in
            BackgroundAssetsDocuments.packageManifestDocument(
                assetPackID: pack.assetPackID, policy: plan.downloadPolicy(of: pack),
                paths: { pack.files.map(\.path) }, language: pack.language, platforms: pack.platforms ?? platforms)
        }
        fileNames = plan.packs.map { BackgroundAssetsLayout.archiveName(of: $0.assetPackID) }
        archiveKeys = try manifests.map { manifest in
            var hasher = SHA256Hasher()
            var sink = DocumentSink { hasher.update($0) }
            try manifest.write(&sink)
            try sink.flush()
            return options.archiveSettingsPrefix(packager: packager.template) + hasher.finalize()
        }
        if let published {
            versionSource = .published(published)
        } else if options.resetVersions {
            versionSource = .none
        } else {
            versionSource = .previousBuild(
                try Self.versions(of: transaction.ownership, folder: options.outputPath.text))
        }
    }

    /// What the folder's previous build manifest says of each pack's version: its odrpack-manifest.json, or while an
    /// interrupted commit is recovered the manifest it retired, so versions continue as if nothing had been
    /// interrupted; nothing for a new folder.
    /// - Throws: `ODRPackError.buildFolder` when the manifest is there but unreadable: versions would silently
    ///   restart at 0 and go backwards on devices.
    static func versions(of ownership: OutputOwnership, folder: String) throws
        -> [String: (version: Int64, contentHash: String)]
    {
        if let unreadable = ownership.unreadable {
            throw ODRPackError.buildFolder(.previousManifestUnreadable(folder: folder, reason: unreadable))
        }
        // A manifest of the other format has no versions (and `OutputOwnership.check` refuses its folder).
        guard let manifest = ownership.manifest, manifest.format.kind.hasAssetPackIDs else { return [:] }
        var versions: [String: (version: Int64, contentHash: String)] = [:]
        for pack in manifest.packs {
            if let version = pack.version, let contentHash = pack.contentHash {
                versions[pack.id] = (version, contentHash)
            }
        }
        return versions
    }

    var folders: [String] {
        [BackgroundAssetsLayout.folder, BackgroundAssetsLayout.folder.slashJoined(BackgroundAssetsLayout.siteFolder)]
    }

    /// Every archive, `<id>.json` and AssetPackTags.json, and for `hosting: self` the download manifest (the `site/`
    /// names, which hold the content hash, are checked once the packs are written: `linkSite`).
    var writes: [String] {
        let folder = BackgroundAssetsLayout.folder + "/"
        var writes = [BuildManifest.fileName, folder + BackgroundAssetsLayout.tagsFile]
        for (index, pack) in plan.packs.enumerated() {
            writes += [folder + fileNames[index], folder + BackgroundAssetsLayout.manifestName(of: pack.assetPackID)]
        }
        if plan.backgroundAssets.hosting == .self {
            let site = folder + BackgroundAssetsLayout.siteFolder + "/"
            writes.append(site + BackgroundAssetsLayout.downloadManifestFile)
        }
        return writes
    }

    /// None: `verify` reports the names in `BackgroundAssets/` that the manifest does not name.
    func foreignFiles() -> [Diagnostic] { [] }

    func prepare() throws {
        var seen: [String: AssetPack] = [:]
        for pack in plan.packs {
            if let other = seen.updateValue(pack, forKey: pack.assetPackID) {
                throw ODRPackError.unbuildable(.sameAssetPackID(other.shortName, pack.shortName, id: pack.assetPackID))
            }
        }
        for path in [folder.path, packsFolder] { try OutputFolder.makeFolder(path) }
        if plan.backgroundAssets.hosting == .self { try OutputFolder.makeFolder(siteFolder) }
    }

    /// A hidden folder in the build folder, outside `BackgroundAssets/`: nothing a previous manifest names changes
    /// before the commit.
    func temporaryPath(forPack index: Int) -> FilePath { outputPath.joined(TemporaryName.beside(fileNames[index])) }

    /// Apple's packager writes the archives: nothing of an old one is copied.
    func reusableEntries(toWrite: [Int], known: KnownDigests, previous: BuildState) -> EntryReuse {
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
                throw ODRPackError.buildInput(.versionExhausted(pack: pack.assetPackID, version: version))
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
        -> (manifest: @Sendable () -> BuildManifest, removed: [String], state: BuildState)
    {
        let hosting = plan.backgroundAssets.hosting
        let (versions, live) = try versions(facts)
        let manifest = BuildManifest(
            plan: plan, archives: facts, versions: versions, urlPrefix: options.urlPrefix,
            packager: (packager.template, packager.version))
        var state = BuildState.make(
            plan, rootPath: rootPath, facts: facts, fileNames: fileNames, archiveKeys: archiveKeys)
        var changes = OutputCommit.Changes()
        changes.placements = written.map {
            (temporaryPath(forPack: $0).joined(fileNames[$0]), packsFolder.joined(fileNames[$0]))
        }
        let removed = try stale(
            folder: packsFolder, relative: BackgroundAssetsLayout.folder, keeping: currentNames(),
            kinds: [".aar", ".json"])
        changes.removals = removed.map { packsFolder.joined($0) }
        var siteNames: [String] = []
        if hosting == .self {
            let site = try linkSite(manifest: manifest, written: Set(written), live: live, previous: previous)
            changes.placements += site.placements
            siteNames = site.names
        }
        let keptInSite = Set(
            (siteNames + (hosting == .self ? [BackgroundAssetsLayout.downloadManifestFile] : [])).map(PathKey.init))
        let site = BackgroundAssetsLayout.folder.slashJoined(BackgroundAssetsLayout.siteFolder)
        changes.removals += try stale(folder: siteFolder, relative: site, keeping: keptInSite, kinds: nil).map {
            siteFolder.joined($0)
        }
        changes.writes = writes + siteNames.map { site.slashJoined($0) }
        changes.temporaryFolders = [packsFolder, siteFolder]
        try transaction.commit(
            changes,
            make: { (documents(manifest, live: live), ()) },
            finish: { _ in
                try state.takeArchiveStamps(packsPath: packsFolder)
                for name in siteNames {
                    state.outputs[BackgroundAssetsLayout.siteFolder.slashJoined(name)] = BuildState.stamp(
                        at: siteFolder.joined(name))
                }
            })
        // A site/ folder emptied of what odrpack wrote there goes too (never one holding the user's files).
        if hosting != .self && changes.removals.contains(where: { $0.isInside(siteFolder) }) {
            SystemCall.removeFolderIfEmpty(siteFolder)
        }
        // The packs' temporary folders (their ba-package manifests and staging), now that the archives are in place.
        removeTemporaryFiles()
        return ({ manifest }, removed.filter { $0.hasSuffix(".aar") }, state)
    }

    /// What the commit writes besides the packs: every pack's <id>.json (rewritten where it was edited),
    /// AssetPackTags.json, for `hosting: self` the download manifest, and odrpack-manifest.json.
    private func documents(_ manifest: BuildManifest, live: [String: Int64]) -> OutputCommit.Documents {
        var documents = OutputCommit.Documents(manifest: StreamedDocument { sink in try manifest.write(to: &sink) })
        for (index, pack) in plan.packs.enumerated() {
            documents.files.append(
                (packsFolder.joined(BackgroundAssetsLayout.manifestName(of: pack.assetPackID)), manifests[index]))
        }
        documents.files.append(
            (
                packsFolder.joined(BackgroundAssetsLayout.tagsFile),
                BackgroundAssetsDocuments.assetPackTagsDocument(manifest)
            ))
        if plan.backgroundAssets.hosting == .self, let urlPrefix = options.urlPrefix {
            let downloadManifest = BackgroundAssetsDocuments.downloadManifest(
                manifest, urlPrefix: urlPrefix, live: live)
            documents.files.append(
                (
                    siteFolder.joined(BackgroundAssetsLayout.downloadManifestFile),
                    StreamedDocument(bytes: Array(downloadManifest.utf8))
                ))
        }
        return documents
    }

    /// The names of `BackgroundAssets/` this build keeps.
    private func currentNames() -> Set<PathKey> {
        var keep = Set(fileNames.map(PathKey.init))
        for pack in plan.packs { keep.insert(PathKey(BackgroundAssetsLayout.manifestName(of: pack.assetPackID))) }
        keep.insert(PathKey(BackgroundAssetsLayout.tagsFile))
        return keep
    }

    /// `site/<id>-<16 hex of contentHash>` (the archive's bytes) for every pack not already live at that address,
    /// beside `download-manifest.json`: what to upload. Changed content gets a new name, so a device or a CDN never
    /// sees other bytes at an address it knows. Each is a hard link of the pack's archive where the file system allows,
    /// else a copy, made beside the archives now for the commit to move into place: when its pack was written, or the
    /// file is not as the last build left it.
    private func linkSite(manifest: BuildManifest, written: Set<Int>, live: [String: Int64], previous: BuildState)
        throws -> (names: [String], placements: [(from: FilePath, to: FilePath)])
    {
        var names: [String] = []
        var placements: [(from: FilePath, to: FilePath)] = []
        for (index, pack) in plan.packs.enumerated() where live[pack.assetPackID] == nil {
            let name = BackgroundAssetsLayout.siteName(
                of: pack.assetPackID, contentHash: manifest.packs[index].contentHash ?? "")
            names.append(name)
            let final = siteFolder.joined(name)
            let relative = BackgroundAssetsLayout.folder.slashJoined(
                BackgroundAssetsLayout.siteFolder.slashJoined(name))
            if !ownership.owns(relative) && SystemCall.status(final, followingLinks: false) != nil {
                throw ODRPackError.unbuildable(.inTheWay(final.text, outputDirectory: options.outputDirectory))
            }
            let stamp = BuildState.stamp(at: final)
            guard
                written.contains(index) || stamp == nil
                    || stamp != previous.outputs[BackgroundAssetsLayout.siteFolder.slashJoined(name)]
            else { continue }
            let source =
                written.contains(index)
                ? temporaryPath(forPack: index).joined(fileNames[index])
                : packsFolder.joined(fileNames[index])
            let temporary = packsFolder.joined(
                TemporaryName.beside(BackgroundAssetsLayout.siteFolder.slashJoined(name)))
            try OutputFolder.remove(temporary)
            if (try? FileManager.default.linkItem(atPath: source.string, toPath: temporary.string)) == nil {
                try FileCopy.copy(source, to: temporary)
            }
            placements.append((temporary, final))
        }
        return (names, placements)
    }

    /// What the last build wrote in `folder` (its manifest names it) and this one does not keep, in code-point order:
    /// a file of the user's stays (docs/build-output.md#ownership).
    /// - Parameter relative: `folder` relative to the build folder, as the manifest names its files.
    private func stale(folder: FilePath, relative: String, keeping keep: Set<PathKey>, kinds: [String]?) throws
        -> [String]
    {
        return try OutputFolder.names(in: folder).sorted(by: { $0.precedesByCodePoint($1) }).filter { name in
            !keep.contains(PathKey(name)) && ownership.owns(relative.slashJoined(name))
                && (kinds.map { kinds in kinds.contains { name.hasSuffix($0) } } ?? true)
        }
    }

    /// Removes this build's temporaries: its pack folders, and the `site/` links not yet moved into place.
    func removeTemporaryFiles() {
        for path in [folder.path, packsFolder] {
            try? OutputFolder.removeTemporaries(in: path, prefix: TemporaryName.processPrefix)
        }
    }
}
