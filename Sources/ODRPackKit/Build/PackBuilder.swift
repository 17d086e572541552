import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes every pack of a valid plan into the output folder: in parallel, incrementally and atomically.
/// Three jobs over one state: `PackReuse` decides what the last build already wrote, `PackWriter`s write the rest
/// beside their final names on every core, and `OutputCommit` moves them into place with the manifest last,
/// so a build that fails or is killed never leaves a manifest that lies.
public struct PackBuilder: Sendable {
    public let options: BuildOptions
    public let progress: BuildProgress

    public init(options: BuildOptions, progress: BuildProgress = BuildProgress(style: .none)) {
        self.options = options
        self.progress = progress
    }

    /// What the last build into the output folder learned (empty with `--no-cache`): load it once,
    /// plan with its `alreadyChecked(_:)`, then pass it to `build`.
    public func loadCache() -> PreviousBuild {
        PreviousBuild(cache: options.useCache ? BuildCache.load(directory: options.outputPath) : BuildCache())
    }

    public func build(_ plan: PackPlan, rootPath: String, previous previousBuild: PreviousBuild? = nil) throws -> BuildResult {
        let commit = OutputCommit(options: options)
        try Self.checkReservedPaths(plan, signed: options.signCommand != nil)
        try commit.makeFolders()
        let previous = (previousBuild ?? loadCache()).cache
        let packs = plan.packs
        let infoPlists = packs.map { [UInt8](AppleManifests.infoPlist(for: $0).binaryData()) }
        let archiveKeys = infoPlists.map { options.archiveKey(infoPlist: Data($0)) }
        var state = try PackReuse(plan: plan, previous: previous, rootPath: rootPath, archiveKeys: archiveKeys,
                                  packsPath: commit.packsPath, jobs: options.jobs)

        // Nothing to do when every pack is reused, the plan and options are as last time,
        // and every output file is still exactly as that build left it.
        let buildFingerprint = state.reused.count == packs.count
            ? Self.fingerprint(plan, facts: state.facts, options: options) : ""
        if !buildFingerprint.isEmpty, buildFingerprint == previous.fingerprint, commit.outputsUnchanged(since: previous, packCount: packs.count) {
            return BuildResult(plan: plan, facts: state.facts, options: options, written: [], reused: packs.map(\.id).sorted(),
                               removed: [], bytesRead: state.bytesRead, bytesWritten: 0)
        }

        let toWrite = state.toWrite
        progress.begin(packs: toWrite.count, bytes: toWrite.reduce(0) { $0 + packs[$1].size })
        let written: [PackArchiveFacts]
        do {
            let spares = CompressorPool(options: options, capacity: options.jobs - 1)
            written = try parallelMap(toWrite, jobs: options.jobs, perWorker: { PackWriter(options: options, spares: spares) }) { writer, index in
                writer.onBytes = { [progress] in progress.add(bytes: $0) }
                let facts = try writer.write(packs[index], infoPlist: infoPlists[index], rootPath: rootPath,
                                             known: state.fileDigests[index], to: commit.temporaryPath(for: packs[index]))
                progress.packFinished()
                return facts
            }
        } catch {
            progress.end()
            commit.removeTemporaryFiles()
            throw error
        }
        progress.end()
        state.bytesRead += toWrite.reduce(0) { $0 + packs[$1].size }
        for (index, result) in zip(toWrite, written) { state.facts[packs[index].id] = result }

        let removed = try commit.run(plan, rootPath: rootPath, facts: state.facts, written: toWrite, archiveKeys: archiveKeys,
                                     previous: previous, fingerprint: buildFingerprint.isEmpty
                                        ? Self.fingerprint(plan, facts: state.facts, options: options) : buildFingerprint)
        return BuildResult(
            plan: plan, facts: state.facts, options: options,
            written: toWrite.map { packs[$0].id }.sorted(), reused: state.reused.map { packs[$0].id }.sorted(),
            removed: removed, bytesRead: state.bytesRead,
            bytesWritten: toWrite.reduce(0) { $0 + (state.facts[packs[$1].id]?.archiveSize ?? 0) })
    }

    /// A signed pack's `_CodeSignature` folder is the signer's (planning already keeps Info.plist and META-INF free).
    static func checkReservedPaths(_ plan: PackPlan, signed: Bool) throws {
        guard signed else { return }
        for pack in plan.packs {
            if let file = pack.files.first(where: { $0.path.hasPrefix(BuildVerifier.signatureFolder) }) {
                throw ODRPackError.invalidInput(
                    "'\(file.path)' in pack '\(pack.shortName)' is inside '_CodeSignature', which the sign command writes: move or exclude it, or build without --sign-command")
            }
        }
    }

    /// SHA-256 of everything the output files are made from: the plan, every pack's facts and the options.
    static func fingerprint(_ plan: PackPlan, facts: [String: PackArchiveFacts], options: BuildOptions) -> String {
        var hasher = SHA256Hasher()
        hasher.update("odrpack-build-2\0\(options.outputPath)\0\(options.layout.rawValue)\0\(options.signCommand ?? "-")\0")
        hasher.update("\(options.compression.rawValue)\0\(options.level)\0\(options.entryTime)\0")
        hasher.update("\(options.urlPrefix ?? "-")\0\(plan.bundleID)\0\(plan.profileName)\0")
        for key in LimitProfile.Key.allCases { hasher.update("\(plan.limits[key] ?? -1)\0") }
        hasher.update("\(plan.initialInstallTags)\0\(plan.prefetchOrder)\0\(plan.appBundleFiles)\0\(plan.appBundleSize)\0")
        for pack in plan.packs {
            guard let fact = facts[pack.id] else { return "" }
            hasher.update("\(pack.id)\0\(pack.fileName)\0\(pack.tags)\0\(pack.priority ?? -1)\0\(pack.category.rawValue)\0")
            hasher.update("\(fact.contentHash)\0\(fact.archiveSha256)\0\(fact.archiveSize)\0\(fact.uncompressedSize)\n")
        }
        return hasher.finalize()
    }
}
