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
    let outputPath: String
    let packsPath: String
    let infoPlists: [[UInt8]]
    let fileNames: [String]
    let archiveKeys: [String]
    /// What in the output folder the last build wrote: all the commit may replace or remove.
    let ownership: OutputOwnership

    init(plan: PackPlan, options: BuildOptions, rootPath: String, ownership: OutputOwnership) {
        self.plan = plan
        self.options = options
        self.rootPath = rootPath
        self.ownership = ownership
        outputPath = options.outputPath
        packsPath = outputPath + "/" + AppleManifests.packsFolder
        infoPlists = plan.packs.map { [UInt8](AppleManifests.infoPlist(for: $0).binaryData()) }
        fileNames = plan.packs.map(\.fileName)
        archiveKeys = infoPlists.map { options.archiveKey(pack: Data($0)) }
    }

    var outputNames: [String] {
        [BuildManifest.fileName, AppleManifests.onDemandResourcesFile, options.applePlists.kept]
    }

    var folders: [String] { [AppleManifests.packsFolder] }

    var writes: [String] {
        fileNames.map { AppleManifests.packsFolder + "/" + $0 } + outputNames
    }

    func prepare() throws {
        try Self.checkReservedPaths(plan, signed: options.signCommand != nil)
        for path in [outputPath, packsPath] { try OutputFolder.makeFolder(path) }
    }

    /// Beside the packs folder, not in it: a build killed while writing leaves `OnDemandResources/` exactly as the
    /// previous build left it (verify reports every name there that the manifest does not name).
    func temporaryPath(forPack index: Int) -> String { outputPath + "/" + TemporaryName.beside(fileNames[index]) }

    /// Zips only: a signer may change what a pack folder holds.
    func reusableEntries(toWrite: [Int], fileDigests: [[FileDigest?]], previous: BuildState) -> EntryReuse {
        guard options.layout == .zip, options.signCommand == nil else { return EntryReuse() }
        return EntryReuse(
            plan: plan, toWrite: toWrite, fileDigests: fileDigests, previous: previous,
            settings: options.archiveSettingsPrefix(), packsPath: packsPath)
    }

    func makeWriter(spares: CompressorPool, entries: EntryReuse) -> any PackFormatWriter {
        PackWriter(options: options, spares: spares, infoPlists: infoPlists, rootPath: rootPath, entries: entries)
    }

    /// Nothing to do when every pack is reused, the plan and options are as last time, and every output file is
    /// still exactly as that build left it.
    func isUnchanged(facts: [String: PackArchiveFacts], previous: BuildState) -> Bool {
        let current = fingerprint(facts)
        return !current.isEmpty && current == previous.outputFingerprint
            && outputNames.allSatisfy({ BuildState.stamp(atPath: outputPath + "/" + $0) == previous.outputs[$0] })
            && !(ownership.owns(options.applePlists.removed)
                && SystemCall.status(outputPath + "/" + options.applePlists.removed, followingLinks: false) != nil)
            && (try? FileManager.default.contentsOfDirectory(atPath: packsPath))?.count == plan.packs.count
    }

    func commit(facts: [String: PackArchiveFacts], written: [Int], previous: BuildState) throws
        -> (manifest: BuildManifest, removed: [String], state: BuildState)
    {
        let manifest = BuildManifest(plan: plan, archives: facts)
        // Opened before anything retires it: unchanged packs' parts are copied from it.
        let previousParts = PreviousManifestParts(path: outputPath + "/" + BuildManifest.fileName, previous: previous)
        let removed = try stalePacks()
        var changes = OutputCommit.Changes()
        changes.placements = written.map { (temporaryPath(forPack: $0), packsPath + "/" + fileNames[$0]) }
        changes.removals = removed.map { packsPath + "/" + $0 }
        if ownership.owns(options.applePlists.removed) {
            changes.removals.append(outputPath + "/" + options.applePlists.removed)
        }
        changes.writes = writes
        changes.temporaryFolders = [packsPath]
        var state = try OutputCommit(outputPath: outputPath).run(
            changes, make: { try documents(manifest, facts: facts, reusing: previousParts) },
            finish: { try $0.takeArchiveStamps(packsPath: packsPath) })
        state.outputFingerprint = fingerprint(facts)
        for name in outputNames { state.outputs[name] = BuildState.stamp(atPath: outputPath + "/" + name) }
        return (manifest, removed, state)
    }

    /// Everything the other output files are made of (the plan and the facts), each part on a core of its own: the
    /// manifest, Apple's plists and the state for the next build.
    private func documents(
        _ manifest: BuildManifest, facts: [String: PackArchiveFacts], reusing previousParts: PreviousManifestParts?
    ) throws -> (OutputCommit.Documents, BuildState) {
        let made = try parallelMap(CommitPart.allCases, jobs: options.jobs) { part -> CommitPart.Made in
            switch part {
            case .manifest:
                let document = Self.document(of: manifest, reusing: previousParts)
                return .manifest(document.bytes, document.parts)
            case .plists:
                let apple = AppleManifests.assetPackManifest(
                    plan, facts: facts, urlPrefix: options.urlPrefix,
                    packsURL: "http://127.0.0.1" + AppleManifests.percentEncoded(packsPath + "/"))
                return .plists(AppleManifests.onDemandResources(plan).binaryData(), apple.binaryData())
            case .state:
                return .state(
                    BuildState.make(
                        plan, rootPath: rootPath, facts: facts, fileNames: fileNames, archiveKeys: archiveKeys))
            }
        }
        var state = BuildState()
        var documents = OutputCommit.Documents(manifest: [])
        let kept = options.applePlists.kept
        var parts: [String: BuildState.ManifestPart] = [:]
        for part in made {
            switch part {
            case .manifest(let bytes, let recorded): (documents.manifest, parts) = (bytes, recorded)
            case .plists(let onDemandResources, let apple):
                documents.files = [
                    (outputPath + "/" + AppleManifests.onDemandResourcesFile, onDemandResources),
                    (outputPath + "/" + kept, apple),
                ]
            case .state(let made): state = made
            }
        }
        for (id, part) in parts { state.packs[id]?.manifestPart = part }
        return (documents, state)
    }

    /// What `documents` makes at once, and what each part gives.
    private enum CommitPart: CaseIterable {
        case manifest, plists, state

        enum Made {
            case manifest([UInt8], [String: BuildState.ManifestPart]), plists(Data, Data), state(BuildState)
        }
    }

    /// The manifest's bytes, each pack's part copied from the previous build's file when its key is unchanged, and
    /// where each keyed part is in them, for the next build (none when they are not where the layout puts them).
    static func document(of manifest: BuildManifest, reusing previousParts: PreviousManifestParts?)
        -> (bytes: [UInt8], parts: [String: BuildState.ManifestPart])
    {
        let keys = manifest.packs.indices.map(manifest.partKey)
        let parts = manifest.packs.indices.map { index in
            keys[index].flatMap { previousParts?.part(id: manifest.packs[index].id, key: $0) }
                ?? manifest.serializedPack(index)
        }
        let bytes = manifest.serialized(packs: parts)
        var recorded: [String: BuildState.ManifestPart] = [:]
        if let offsets = BuildManifest.partOffsets(parts, in: bytes) {
            for (index, pack) in manifest.packs.enumerated() {
                guard let key = keys[index] else { continue }
                recorded[pack.id] = .init(key: key, offset: Int64(offsets[index]), length: Int64(parts[index].count))
            }
        }
        return (bytes, recorded)
    }

    /// The packs the last build wrote that this one does not make (by name, in code-point order): only what its
    /// manifest names, so a file of the user's in `OnDemandResources/` stays (docs/build-output.md#ownership).
    private func stalePacks() throws -> [String] {
        let current = Set(fileNames.map(PathKey.init))
        return try OutputFolder.names(in: packsPath).sorted(by: { $0.precedesByCodePoint($1) }).filter {
            !current.contains(PathKey($0)) && ownership.owns(AppleManifests.packsFolder + "/" + $0)
        }
    }

    func removeTemporaryFiles() {
        for folder in [outputPath, packsPath] {
            try? OutputFolder.removeTemporaries(in: folder, prefix: TemporaryName.processPrefix)
        }
    }

    /// A signed pack's `_CodeSignature` folder is the signer's (planning already keeps Info.plist and META-INF free).
    static func checkReservedPaths(_ plan: PackPlan, signed: Bool) throws {
        guard signed else { return }
        for pack in plan.packs {
            if let file = pack.files.first(where: { $0.path.hasPrefix(PackEntry.signatureFolder) }) {
                throw ODRPackError.unbuildable(
                    """
                    '\(file.path)' in pack '\(pack.shortName)' is inside '_CodeSignature', which the sign command \
                    writes: move or exclude it, or build without --sign-command
                    """
                )
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
