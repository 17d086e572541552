import Foundation
import ODRPackCore
import ODRPackPlatform

/// A Background Assets build's output (SPEC 12): `BackgroundAssets/<id>.json` and `<id>.aar` per pack,
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
    /// The version and contentHash of each pack (by id) in the folder's last Background Assets build.
    let previousVersions: [String: (version: Int64, contentHash: String)]

    init(plan: PackPlan, options: BuildOptions, packager: BackgroundAssetsPackager, rootPath: String) {
        self.plan = plan
        self.options = options
        self.packager = packager
        self.rootPath = rootPath
        outputPath = options.outputPath
        packsPath = outputPath + "/" + BackgroundAssetsLayout.folder
        let platforms = plan.backgroundAssets.platforms ?? []
        manifests = plan.packs.map { pack in
            BackgroundAssetsDocuments.packageManifest(assetPackID: pack.assetPackID, policy: plan.downloadPolicy(of: pack),
                                                      paths: pack.files.map(\.path), platforms: platforms)
        }
        fileNames = plan.packs.map { BackgroundAssetsLayout.archiveName(of: $0.assetPackID) }
        archiveKeys = manifests.map { options.archiveKey(pack: Data($0.utf8), packager: packager.template) }
        previousVersions = Self.versions(inBuildAt: options.outputPath)
    }

    /// What the folder's current odrpack-manifest.json says of each pack's version; nothing when it is not a
    /// readable Background Assets build (every pack is then new to the folder, version 0).
    static func versions(inBuildAt folder: String) -> [String: (version: Int64, contentHash: String)] {
        guard let (manifest, _) = try? BuildManifest.load(folder + "/" + BuildManifest.fileName),
              manifest.format == .backgroundAssets else { return [:] }
        var versions: [String: (version: Int64, contentHash: String)] = [:]
        for pack in manifest.packs {
            if let version = pack.version, let contentHash = pack.contentHash { versions[pack.id] = (version, contentHash) }
        }
        return versions
    }

    func prepare() throws {
        var seen: [String: AssetPack] = [:]
        for pack in plan.packs {
            if let other = seen.updateValue(pack, forKey: pack.assetPackID) {
                throw ODRPackError.unbuildable(
                    "packs '\(other.shortName)' and '\(pack.shortName)' have the same asset pack id '\(pack.assetPackID)' (their tags differ only in characters Background Assets cannot use): rename one of the tags")
            }
        }
        for path in [outputPath, packsPath] { try OutputFolder.makeFolder(path) }
    }

    func temporaryPath(forPack index: Int) -> String { packsPath + "/" + TemporaryName.beside(fileNames[index]) }

    /// Apple's packager writes the archives: nothing of an old one is copied.
    func reusableEntries(toWrite: [Int], fileDigests: [[FileDigest?]], previous: BuildState) -> EntryReuse { EntryReuse() }

    func makeWriter(spares: CompressorPool, entries: EntryReuse) -> any PackFormatWriter {
        BackgroundAssetsPackWriter(packager: packager, manifests: manifests, rootPath: rootPath, packsPath: packsPath)
    }

    /// The commit compares every small file's bytes itself and copies only what changed.
    func isUnchanged(facts: [String: PackArchiveFacts], previous: BuildState) -> Bool { false }

    /// 0 for a pack new to the folder; the previous version + 1 when its content changed; else the previous one.
    func versions(_ facts: [String: PackArchiveFacts]) -> [String: Int64] {
        var versions: [String: Int64] = [:]
        for pack in plan.packs {
            guard let before = previousVersions[pack.id] else { versions[pack.id] = 0; continue }
            versions[pack.id] = facts[pack.id]?.contentHash == before.contentHash ? before.version : before.version + 1
        }
        return versions
    }

    func commit(facts: [String: PackArchiveFacts], written: [Int], previous: BuildState) throws
        -> (manifest: BuildManifest, removed: [String], state: BuildState) {
        let hosting = plan.backgroundAssets.hosting
        let manifest = BuildManifest(plan: plan, archives: facts, versions: versions(facts), urlPrefix: options.urlPrefix)
        let manifestPath = outputPath + "/" + BuildManifest.fileName
        let manifestBytes = Data(manifest.serializedBytes())
        let manifestUnchanged = try OutputFolder.retireManifest(at: manifestPath, keepingIf: written.isEmpty ? manifestBytes : nil)
        // Each written pack's <id>.json is in place already (the packager was given it there).
        for index in written {
            let folder = temporaryPath(forPack: index)
            try OutputFolder.moveIntoPlace(folder + "/" + fileNames[index], to: packsPath + "/" + fileNames[index])
            try OutputFolder.remove(folder)
        }
        // A reused pack's manifest may have been edited or removed since: it is small, so compared and rewritten.
        for (index, pack) in plan.packs.enumerated() {
            try OutputFolder.writeIfChanged(Data(manifests[index].utf8),
                                            to: packsPath + "/" + BackgroundAssetsLayout.manifestName(of: pack.assetPackID))
        }
        let removed = try removeStale()
        // An ODR build's output, when this folder held one.
        for name in [AppleManifests.packsFolder, AppleManifests.onDemandResourcesFile, AppleManifests.templateFile, AppleManifests.manifestFile] {
            try OutputFolder.remove(outputPath + "/" + name)
        }
        var state = BuildState.make(plan, rootPath: rootPath, facts: facts, fileNames: fileNames, archiveKeys: archiveKeys)
        try state.takeArchiveStamps(packsPath: packsPath)
        let sitePath = packsPath + "/" + BackgroundAssetsLayout.siteFolder
        var copied: [String] = []
        if hosting == .self {
            copied = try copySite(at: sitePath, written: Set(written), previous: previous, state: &state)
        } else {
            try OutputFolder.remove(sitePath)
        }
        // Every archive (and its site copy) is on stable storage before a document that names it is renamed into place.
        if !written.isEmpty || !copied.isEmpty {
            try SystemCall.makeDurable(folder: outputPath, written: written.map { packsPath + "/" + fileNames[$0] } + copied)
        }
        try OutputFolder.writeIfChanged(Data(BackgroundAssetsDocuments.assetPackTags(manifest).utf8),
                                        to: packsPath + "/" + BackgroundAssetsLayout.tagsFile)
        if hosting == .self, let urlPrefix = options.urlPrefix {
            try OutputFolder.writeIfChanged(Data(BackgroundAssetsDocuments.downloadManifest(manifest, urlPrefix: urlPrefix).utf8),
                                            to: sitePath + "/" + BackgroundAssetsLayout.downloadManifestFile)
        }
        if !manifestUnchanged { try AtomicFile.write(manifestBytes, to: manifestPath, durable: true) }
        return (manifest, removed, state)
    }

    /// `site/<id>` (the archive's bytes) for every pack, beside `download-manifest.json`: what a static web server
    /// serves. An archive is copied when its pack was written or its copy is not as the last build left it; returns
    /// the copies made.
    private func copySite(at sitePath: String, written: Set<Int>, previous: BuildState, state: inout BuildState) throws -> [String] {
        try OutputFolder.makeFolder(sitePath)
        var keep: Set<String> = [BackgroundAssetsLayout.downloadManifestFile]
        var copied: [String] = []
        for (index, pack) in plan.packs.enumerated() {
            let id = pack.assetPackID
            keep.insert(id)
            let copy = sitePath + "/" + id
            let key = BackgroundAssetsLayout.siteFolder + "/" + id
            let stamp = BuildState.stamp(atPath: copy)
            if written.contains(index) || stamp == nil || stamp != previous.outputs[key] {
                let temporary = TemporaryName.path(beside: copy)
                try FileCopy.copy(packsPath + "/" + fileNames[index], to: temporary)
                try OutputFolder.moveIntoPlace(temporary, to: copy)
                copied.append(copy)
            }
            state.outputs[key] = BuildState.stamp(atPath: copy)
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: sitePath)) ?? [] where !keep.contains(name) {
            try OutputFolder.remove(sitePath + "/" + name)
        }
        return copied
    }

    /// Removes the archives and manifests of packs that no longer exist, and leftovers of interrupted builds.
    private func removeStale() throws -> [String] {
        var keep = Set(fileNames)
        for pack in plan.packs { keep.insert(BackgroundAssetsLayout.manifestName(of: pack.assetPackID)) }
        keep.insert(BackgroundAssetsLayout.tagsFile)
        keep.insert(BackgroundAssetsLayout.siteFolder)
        var removed: [String] = []
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: packsPath)) ?? []
        for name in entries.sorted(by: { $0.precedesByCodePoint($1) })
        where !keep.contains(name) && (name.hasSuffix(".aar") || name.hasSuffix(".json") || name.hasPrefix(TemporaryName.marker)) {
            try OutputFolder.remove(packsPath + "/" + name)
            if name.hasSuffix(".aar") { removed.append(name) }
        }
        try OutputFolder.removeTemporaries(in: outputPath)
        return removed
    }

    /// Puts back the `<id>.json` files the writers replaced, then removes this build's temporaries.
    func removeTemporaryFiles() {
        BackgroundAssetsPackWriter.restore(packsPath: packsPath)
        try? OutputFolder.removeTemporaries(in: packsPath, prefix: TemporaryName.processPrefix)
    }
}
