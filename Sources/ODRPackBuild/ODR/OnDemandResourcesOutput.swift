import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// An ODR build's output (docs/build-output.md): one zip or folder per pack in `OnDemandResources/`, Apple's plists and
/// odrpack-manifest.json (last). Every temporary is named by `TemporaryName`, so the next build can clear what a
/// killed one left.
struct OnDemandResourcesOutput: PackOutput {
    let plan: PackPlan
    let options: BuildOptions
    let rootPath: String
    /// The output folder, bytes and all (`BuildOptions.outputPath`).
    let outputPath: FilePath
    /// The build folder and its locations, from the transaction that holds it open.
    let folder: BuildFolder
    let packsFolder: FilePath
    let infoPlists: [[UInt8]]
    let fileNames: [String]
    let archiveKeys: [String]
    /// The folder open for writing and what in it the last build wrote: all the commit may replace or remove.
    let transaction: BuildFolderTransaction
    var ownership: OutputOwnership { transaction.ownership }

    init(plan: PackPlan, options: BuildOptions, rootPath: String, transaction: BuildFolderTransaction) {
        self.plan = plan
        self.options = options
        self.rootPath = rootPath
        self.transaction = transaction
        outputPath = options.outputPath
        folder = transaction.folder.folder
        packsFolder = folder.packs(.odr)
        infoPlists = plan.packs.map { [UInt8](AppleManifests.infoPlist(for: $0).binaryData()) }
        fileNames = plan.packs.map(\.fileName)
        archiveKeys = infoPlists.map { options.archiveKey(pack: Data($0)) }
    }

    var outputNames: [String] {
        [BuildManifest.fileName, AppleManifests.onDemandResourcesFile, options.applePlists.kept]
    }

    var folders: [String] { [AppleManifests.packsFolder] }

    var writes: [String] {
        fileNames.map { AppleManifests.packsFolder.slashJoined($0) } + outputNames
    }

    func foreignFiles() -> [Diagnostic] {
        ownership.foreignFiles(
            outputDirectory: options.outputDirectory, packsFolder: AppleManifests.packsFolder)
    }

    func prepare() throws {
        try Self.checkReservedPaths(plan, signed: options.signCommand != nil)
        for path in [folder.path, packsFolder] { try OutputFolder.makeFolder(path) }
    }

    /// Beside the packs folder, not in it: a build killed while writing leaves `OnDemandResources/` exactly as the
    /// previous build left it (verify reports every name there that the manifest does not name).
    func temporaryPath(forPack index: Int) -> FilePath { outputPath.joined(TemporaryName.beside(fileNames[index])) }

    /// Zips only: a signer may change what a pack folder holds.
    func reusableEntries(toWrite: [Int], known: KnownDigests, previous: BuildState) -> EntryReuse {
        guard options.layout == .zip, options.signCommand == nil else { return EntryReuse() }
        return EntryReuse(
            plan: plan, toWrite: toWrite, known: known, previous: previous,
            settings: options.archiveSettingsPrefix(), packsFolder: packsFolder)
    }

    func makeWriter(spares: CompressorPool, entries: EntryReuse) -> any PackFormatWriter {
        PackWriter(options: options, spares: spares, infoPlists: infoPlists, rootPath: rootPath, entries: entries)
    }

    /// Nothing to do when every pack is reused, the plan and options are as last time, and every output file is
    /// still exactly as that build left it.
    func isUnchanged(facts: [String: PackArchiveFacts], previous: BuildState) -> Bool {
        let current = fingerprint(facts)
        return !current.isEmpty && current == previous.outputFingerprint
            && outputNames.allSatisfy({ BuildState.stamp(at: folder.file($0)) == previous.outputs[$0] })
            && !(ownership.owns(options.applePlists.removed)
                && SystemCall.status(folder.file(options.applePlists.removed), followingLinks: false) != nil)
            && (try? FileManager.default.contentsOfDirectory(atPath: packsFolder.string))?.count == plan.packs.count
    }

    func commit(facts: [String: PackArchiveFacts], written: [Int], previous: BuildState) throws
        -> (manifest: @Sendable () -> BuildManifest, removed: [String], state: BuildState)
    {
        let manifest = ManifestSource(plan: plan, facts: facts)
        // Opened before anything retires it: unchanged packs' parts are copied from it.
        let previousParts = PreviousManifestParts(path: folder.manifest, previous: previous)
        let removed = try stalePacks()
        var changes = OutputCommit.Changes()
        changes.placements = written.map { (temporaryPath(forPack: $0), packsFolder.joined(fileNames[$0])) }
        changes.removals = removed.map { packsFolder.joined($0) }
        if ownership.owns(options.applePlists.removed) {
            changes.removals.append(folder.file(options.applePlists.removed))
        }
        changes.writes = writes
        changes.temporaryFolders = [packsFolder]
        let parts = Locked<[String: BuildState.ManifestPart]>([:])
        var state = try transaction.commit(
            changes, make: { try documents(manifest, facts: facts, reusing: previousParts, parts: parts) },
            finish: { state in
                try state.takeArchiveStamps(packsPath: packsFolder)
                for (id, part) in parts.withLock({ $0 }) { state.packs[id]?.manifestPart = part }
            })
        state.outputFingerprint = fingerprint(facts)
        for name in outputNames { state.outputs[name] = BuildState.stamp(at: folder.file(name)) }
        return ({ [plan] in BuildManifest(plan: plan, archives: facts) }, removed, state)
    }

    /// Everything the other output files are made of (the plan and the facts): the state for the next build, and the
    /// documents, each streamed into its file when the commit writes it (docs/build-output.md#bounded). Writing the
    /// manifest records where each keyed part went in `parts`, for the next build.
    private func documents(
        _ manifest: ManifestSource, facts: [String: PackArchiveFacts], reusing previousParts: PreviousManifestParts?,
        parts: Locked<[String: BuildState.ManifestPart]>
    ) throws -> (OutputCommit.Documents, BuildState) {
        let keys = plan.packs.indices.map { manifest.pack($0).partKey(0) }
        let apple = AppleManifests.assetPackManifest(
            plan, facts: facts, urlPrefix: options.urlPrefix,
            packsURL: "http://127.0.0.1"
                // Text in a document: the packs folder as the state names it.
                + AppleManifests.percentEncoded(
                    options.templatePacksFolder(packsPath: outputPath.text.slashJoined(AppleManifests.packsFolder))))
        let documents = OutputCommit.Documents(
            manifest: StreamedDocument { sink in
                let recorded = try Self.write(manifest, keys: keys, reusing: previousParts, to: &sink)
                parts.withLock { $0 = recorded }
            },
            files: [
                (folder.file(AppleManifests.onDemandResourcesFile), AppleManifests.onDemandResourcesDocument(plan)),
                (folder.file(options.applePlists.kept), StreamedDocument(bytes: [UInt8](apple.binaryData()))),
            ])
        let state = BuildState.make(
            plan, rootPath: rootPath, facts: facts, fileNames: fileNames, archiveKeys: archiveKeys)
        return (documents, state)
    }

    /// Writes the manifest into `sink`, each pack's part copied from the previous build's file when its key (`keys`, by
    /// pack index) is unchanged; returns where each keyed part went, for the next build.
    static func write(
        _ manifest: ManifestSource, keys: [String?], reusing previousParts: PreviousManifestParts?,
        to sink: inout DocumentSink
    ) throws -> [String: BuildState.ManifestPart] {
        let placed = try manifest.outline.write(
            to: &sink,
            reusing: { index, sink in
                guard let key = keys[index], let previousParts else { return false }
                return try previousParts.copyPart(id: manifest.outline.packs[index].id, key: key, into: &sink)
            }, pack: { manifest.pack($0).packs[0] })
        var recorded: [String: BuildState.ManifestPart] = [:]
        for (index, pack) in manifest.outline.packs.enumerated() {
            guard let key = keys[index] else { continue }
            recorded[pack.id] = .init(key: key, offset: placed[index].offset, length: placed[index].length)
        }
        return recorded
    }

    /// odrpack-manifest.json made from the plan and the facts a pack at a time (docs/build-output.md#bounded): its
    /// outline (every member, every pack without its file list) and each pack's manifest when it is written, so the
    /// document phase never holds a `BuildManifest.File` for every file.
    struct ManifestSource: Sendable {
        let plan: PackPlan
        let facts: [String: PackArchiveFacts]
        /// The manifest with every pack's file list empty; its sizes and totals are the plan's, which keeps them apart.
        let outline: BuildManifest

        init(plan: PackPlan, facts: [String: PackArchiveFacts]) {
            self.plan = plan
            self.facts = facts
            var bare = plan
            for index in bare.packs.indices { bare.packs[index].files = [] }
            outline = BuildManifest(plan: bare, archives: facts)
        }

        /// The manifest of a plan holding only pack `index`: its one pack is the whole manifest's pack `index`.
        func pack(_ index: Int) -> BuildManifest {
            var single = plan
            single.packs = [plan.packs[index]]
            return BuildManifest(plan: single, archives: facts)
        }
    }

    /// The packs the last build wrote that this one does not make (by name, in code-point order): only what its
    /// manifest names, so a file of the user's in `OnDemandResources/` stays (docs/build-output.md#ownership).
    private func stalePacks() throws -> [String] {
        let current = Set(fileNames.map(PathKey.init))
        return try OutputFolder.names(in: packsFolder).sorted(by: { $0.precedesByCodePoint($1) }).filter {
            !current.contains(PathKey($0)) && ownership.owns(AppleManifests.packsFolder.slashJoined($0))
        }
    }

    func removeTemporaryFiles() {
        for path in [folder.path, packsFolder] {
            try? OutputFolder.removeTemporaries(in: path, prefix: TemporaryName.processPrefix)
        }
    }

    /// A signed pack's `_CodeSignature` folder is the signer's (planning already keeps Info.plist and META-INF free).
    static func checkReservedPaths(_ plan: PackPlan, signed: Bool) throws {
        guard signed else { return }
        for pack in plan.packs {
            if let file = pack.files.first(where: { $0.path.hasPrefix(PackEntry.signatureFolder) }) {
                throw ODRPackError.unbuildable(.insideSignatureFolder(file.path, pack: pack.shortName))
            }
        }
    }

    /// SHA-256 of everything the output files are made from: the plan, every pack's facts and the options.
    func fingerprint(_ facts: [String: PackArchiveFacts]) -> String {
        var hasher = SHA256Hasher()
        hasher.update(options.settingsKey(packsOnly: false) + "\0")
        hasher.update("\(plan.bundleID)\0\(plan.profileName)\0")
        for key in LimitProfile.Key.allCases { hasher.update("\(plan.limits[key] ?? -1)\0") }
        hasher.update(
            "\(plan.initialInstallTags)\0\(plan.prefetchOrder)\0\(plan.appBundleFiles)\0\(plan.appBundleSize)\0")
        for pack in plan.packs {
            guard let fact = facts[pack.id] else { return "" }
            hasher.update(
                "\(pack.id)\0\(pack.fileName)\0\(pack.tags)\0\(pack.priority ?? -1)\0\(pack.category.rawValue)\0")
            hasher.update("\(fact.contentHash)\0\(fact.archiveSha256)\0\(fact.archiveSize)\0\(fact.uncompressedSize)\n")
        }
        return hasher.finalize()
    }
}
