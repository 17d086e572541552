import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a build did.
public struct BuildResult: Sendable {
    public var plan: PackPlan
    public var facts: [String: PackArchiveFacts]
    public var written: [String]
    public var reused: [String]
    public var removed: [String]
    public var bytesRead: Int64
    public var bytesWritten: Int64

    /// The odrpack-manifest.json document.
    public var document: [(String, JSONValue)] { ManifestDocument.json(plan: plan, archives: facts) }

    /// The bytes of all the pack archives.
    public var archiveBytes: Int64 { facts.values.reduce(0) { $0 + $1.archiveSize } }

    /// What the build did, with the whole command's time (the caller's clock: planning counts too).
    public func summary(seconds: Double) -> BuildSummary {
        BuildSummary(packs: plan.packs.count, written: written.count, reused: reused.count, removed: removed.count,
                     bytesRead: bytesRead, bytesWritten: bytesWritten, contentBytes: plan.totalSize,
                     archiveBytes: archiveBytes, seconds: seconds)
    }
}

/// Writes every pack of a valid plan into the output folder: in parallel, incrementally and atomically.
/// Archives are written beside their final names and renamed into place only when all are written;
/// the manifest goes last, so a build that fails or is killed never leaves a manifest that lies.
public struct PackBuilder {
    public let options: BuildOptions
    public let progress: BuildProgress

    public init(options: BuildOptions, progress: BuildProgress = BuildProgress(style: .none)) {
        self.options = options
        self.progress = progress
    }

    var outputPath: String { options.outputPath }
    var packsPath: String { outputPath + "/" + AppleManifests.packsFolder }

    /// What the last build into the output folder learned (empty with `--no-cache`): load it once,
    /// plan with its `alreadyChecked(_:)`, then pass it to `build`.
    public func loadCache() -> PreviousBuild {
        PreviousBuild(cache: options.useCache ? BuildCache.load(directory: outputPath) : BuildCache())
    }

    public func build(_ plan: PackPlan, rootPath: String, previous previousBuild: PreviousBuild? = nil) throws -> BuildResult {
        try makeFolder(outputPath)
        try makeFolder(packsPath)
        let previous = (previousBuild ?? loadCache()).cache
        let sameRoot = previous.rootPath == rootPath

        // 1. Every file's SHA-256 from the cache where its metadata is unchanged: a pack whose files and
        //    metadata are all as recorded takes its hashes (and content hash) from its record at once.
        let packs = plan.packs
        var unchangedFiles = Set<Int>()
        var fileHashes: [[String?]] = packs.indices.map { index in
            let pack = packs[index]
            guard sameRoot else { return pack.files.map { _ in nil } }
            if let record = previous.packs[pack.id], record.files.count == pack.files.count,
               zip(record.files, pack.files).allSatisfy({ known, file in
                   previous.files[known].stamp == file.stamp && previous.files[known].path.hasSameBytes(as: file.path)
               }) {
                unchangedFiles.insert(index)
                return record.files.map { previous.files[$0].sha256 }
            }
            return pack.files.map { file in previous.file(atPath: file.path).flatMap { $0.stamp == file.stamp ? $0.sha256 : nil } }
        }
        // 2. Packs the cache may vouch for: hash their changed files (a touched file is read, not rewritten).
        let infoPlists = packs.map { AppleManifests.infoPlist(for: $0).binaryData() }
        let archiveKeys = infoPlists.map { options.archiveKey(infoPlist: $0) }
        let candidates = packs.indices.filter { index in
            guard let record = previous.packs[packs[index].id] else { return false }
            return record.fileName == packs[index].fileName && record.archiveKey == archiveKeys[index]
                && BuildCache.stamp(atPath: packsPath + "/" + record.fileName) == record.archiveStamp
        }
        var bytesRead: Int64 = 0
        let unknown = candidates.flatMap { pack in fileHashes[pack].indices.filter { fileHashes[pack][$0] == nil }.map { (pack, $0) } }
        if !unknown.isEmpty {
            let hashes = try parallelMap(unknown, jobs: options.jobs) { pair in
                try FileHasher.sha256(rootPath: rootPath, file: packs[pair.0].files[pair.1])
            }
            for (pair, hash) in zip(unknown, hashes) { fileHashes[pair.0][pair.1] = hash }
            bytesRead += unknown.reduce(0) { $0 + packs[$1.0].files[$1.1].size }
        }
        var facts: [String: PackArchiveFacts] = [:]
        var reused: [Int] = []
        for index in candidates {
            let hashes = fileHashes[index].compactMap { $0 }
            guard hashes.count == packs[index].files.count, let record = previous.packs[packs[index].id] else { continue }
            let contentHash = unchangedFiles.contains(index) ? record.contentHash
                : PackArchiver.contentHash(files: packs[index].files, sha256: hashes)
            if contentHash == record.contentHash {
                facts[packs[index].id] = PackArchiveFacts(archiveSize: record.archiveSize, archiveSha256: record.archiveSha256,
                                                          contentHash: contentHash, fileSha256: hashes)
                reused.append(index)
            }
        }

        // Nothing to do when every pack is reused, the plan and options are the same as last time,
        // and every output file is still exactly as that build left it.
        let (keep, drop) = options.applePlists
        let outputNames = [ManifestDocument.fileName, AppleManifests.onDemandResourcesFile, keep]
        let buildFingerprint = reused.count == packs.count
            ? Self.fingerprint(plan, facts: facts, options: options, outputPath: outputPath) : ""
        if !buildFingerprint.isEmpty, buildFingerprint == previous.fingerprint,
           outputNames.allSatisfy({ BuildCache.stamp(atPath: outputPath + "/" + $0) == previous.outputs[$0] }),
           access(outputPath + "/" + drop, F_OK) != 0,
           (try? FileManager.default.contentsOfDirectory(atPath: packsPath))?.count == packs.count {
            return BuildResult(plan: plan, facts: facts, written: [], reused: packs.map(\.id).sorted(), removed: [],
                               bytesRead: bytesRead, bytesWritten: 0)
        }
        // 3. Write the rest beside their final names, biggest first, on every core.
        let reusedSet = Set(reused)
        let toWrite = packs.indices.filter { !reusedSet.contains($0) }.sorted { packs[$0].size > packs[$1].size }
        let temporaryPrefix = ".odrpack-tmp-\(getpid())-"
        progress.begin(packs: toWrite.count, bytes: toWrite.reduce(0) { $0 + packs[$1].size })
        let written: [PackArchiveFacts]
        do {
            written = try parallelMap(toWrite, jobs: options.jobs,
                                      perWorker: { PackArchiver(options: options, rootPath: rootPath) }) { archiver, index in
                archiver.onBytes = { [progress] in progress.add(bytes: $0) }
                let pack = packs[index]
                let temporary = packsPath + "/" + temporaryPrefix + pack.fileName
                let descriptor = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else {
                    throw BuildError.system("cannot create '\(temporary)'")
                }
                defer { close(descriptor) }
                let result = try archiver.write(pack, infoPlist: infoPlists[index], to: descriptor)
                progress.packFinished()
                return result
            }
        } catch {
            progress.end()
            removeTemporaryFiles()
            throw error
        }
        progress.end()
        bytesRead += toWrite.reduce(0) { $0 + packs[$1].size }
        for (index, result) in zip(toWrite, written) { facts[packs[index].id] = result }

        // 4. Commit: nothing trusts the old manifest from here on; archives move into place, then the rest.
        let manifestPath = outputPath + "/" + ManifestDocument.fileName
        let document = ManifestDocument.json(plan: plan, archives: facts)
        let manifestText = JSONValue.object(document).serialized()
        let manifestUnchanged = toWrite.isEmpty && FileManager.default.contents(atPath: manifestPath) == Data(manifestText.utf8)
        if !manifestUnchanged { unlink(manifestPath) }
        for index in toWrite {
            let pack = packs[index]
            let final = packsPath + "/" + pack.fileName
            try moveArchive(packsPath + "/" + temporaryPrefix + pack.fileName, to: final)
        }
        let removed = try removeStalePacks(keeping: Set(packs.map(\.fileName)))
        var cache = try makeCache(plan, rootPath: rootPath, facts: facts, archiveKeys: archiveKeys)
        let contentHashes = facts.mapValues(\.contentHash)
        try writeIfChanged(AppleManifests.onDemandResources(plan).binaryData(), to: outputPath + "/" + AppleManifests.onDemandResourcesFile)
        let apple = AppleManifests.assetPackManifest(plan, contentHashes: contentHashes, urlPrefix: options.urlPrefix,
                                                     outputDirectory: outputPath).binaryData()
        try writeIfChanged(apple, to: outputPath + "/" + keep)
        unlink(outputPath + "/" + drop)
        // The cache only saves time: a build whose cache cannot be written still succeeded.
        let cachePath = BuildCache.location(for: outputPath)
        try? FileManager.default.createDirectory(atPath: (cachePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if !manifestUnchanged { try writeIfChanged(Data(manifestText.utf8), to: manifestPath) }
        cache.fingerprint = buildFingerprint.isEmpty
            ? Self.fingerprint(plan, facts: facts, options: options, outputPath: outputPath) : buildFingerprint
        for name in outputNames { cache.outputs[name] = BuildCache.stamp(atPath: outputPath + "/" + name) }
        if !toWrite.isEmpty || cache != previous || !FileManager.default.fileExists(atPath: cachePath) {
            try? write(cache.serialized(), to: cachePath, unlinkingFirst: true)
        }

        return BuildResult(
            plan: plan, facts: facts,
            written: toWrite.map { packs[$0].id }.sorted(), reused: reused.map { packs[$0].id }.sorted(),
            removed: removed, bytesRead: bytesRead,
            bytesWritten: toWrite.reduce(0) { $0 + (facts[packs[$1].id]?.archiveSize ?? 0) })
    }

    /// The cache for this build's packs: files sorted by path (each pack's files are sorted already, so
    /// the sort merges runs), packs pointing at them.
    private func makeCache(_ plan: PackPlan, rootPath: String, facts: [String: PackArchiveFacts],
                           archiveKeys: [String]) throws -> BuildCache {
        let packs = plan.packs
        var cache = BuildCache()
        cache.rootPath = rootPath
        var order = packs.indices.flatMap { pack in packs[pack].files.indices.map { (pack: pack, file: $0) } }
        order.sort { packs[$0.pack].files[$0.file].path.precedesByCodePoint(packs[$1.pack].files[$1.file].path) }
        var positions = packs.map { Array(repeating: 0, count: $0.files.count) }
        cache.files.reserveCapacity(order.count)
        for (position, item) in order.enumerated() {
            let file = packs[item.pack].files[item.file]
            positions[item.pack][item.file] = position
            cache.files.append(.init(path: file.path, stamp: file.stamp, sha256: facts[packs[item.pack].id]!.fileSha256[item.file]))
        }
        for (index, pack) in packs.enumerated() {
            let fact = facts[pack.id]!
            guard let archiveStamp = BuildCache.stamp(atPath: packsPath + "/" + pack.fileName) else {
                throw BuildError.io("archive '\(pack.fileName)' vanished while the build was finishing", errno: ENOENT)
            }
            cache.packs[pack.id] = .init(fileName: pack.fileName, archiveKey: archiveKeys[index], archiveSize: fact.archiveSize,
                                         archiveSha256: fact.archiveSha256, contentHash: fact.contentHash,
                                         archiveStamp: archiveStamp, files: positions[index])
        }
        return cache
    }

    /// SHA-256 of everything the output files are made from: the plan, every file's content hash and the options.
    static func fingerprint(_ plan: PackPlan, facts: [String: PackArchiveFacts], options: BuildOptions, outputPath: String) -> String {
        var hasher = SHA256Hasher()
        hasher.update("odrpack-build-1\0\(outputPath)\0\(options.compression.rawValue)\0\(options.level)\0\(options.entryTime)\0")
        hasher.update("\(options.urlPrefix ?? "-")\0\(plan.bundleID)\0\(plan.profileName)\0")
        for key in LimitProfile.Key.allCases { hasher.update("\(plan.limits[key] ?? -1)\0") }
        hasher.update("\(plan.initialInstallTags)\0\(plan.prefetchOrder)\0\(plan.appBundleFiles)\0\(plan.appBundleSize)\0")
        for pack in plan.packs {
            guard let fact = facts[pack.id] else { return "" }
            hasher.update("\(pack.id)\0\(pack.fileName)\0\(pack.tags)\0\(pack.priority ?? -1)\0\(pack.category.rawValue)\0")
            hasher.update("\(fact.contentHash)\0\(fact.archiveSha256)\0\(fact.archiveSize)\n")
        }
        return hasher.finalize()
    }

    // MARK: File system

    private func makeFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw BuildError.io("cannot create folder '\(path)': \(error.localizedDescription)", errno: EIO)
        }
    }

    /// Moves a written archive into place. The old archive is unlinked first: renaming over an existing file makes
    /// ext4 flush the new one to disk on the spot (auto_da_alloc), tens of milliseconds for a large archive.
    /// Archives are moved while no manifest vouches for the folder, so their brief absence is safe.
    private func moveArchive(_ from: String, to: String) throws {
        unlink(to)
        guard rename(from, to) == 0 else {
            throw BuildError.system("cannot move '\(from)' to '\(to)'")
        }
    }

    /// Writes beside the final name and renames into place; skips the write when the bytes are already there.
    private func writeIfChanged(_ data: Data, to path: String) throws {
        if FileManager.default.contents(atPath: path) == data { return }
        try write(data, to: path)
    }

    /// Writes beside the final name and renames into place.
    private func write(_ data: Data, to path: String, unlinkingFirst: Bool = false) throws {
        do {
            try AtomicFile.write(data, to: path, unlinkingFirst: unlinkingFirst)
        } catch AtomicFile.Failure.rename(let code) {
            throw BuildError.system("cannot move '\(AtomicFile.temporaryPath(for: path))' to '\(path)'", code)
        } catch {
            throw BuildError.io("cannot write '\(path)' (is the disk full?)", errno: ENOSPC)
        }
    }

    /// Removes archives of packs that no longer exist, and leftovers of interrupted builds.
    private func removeStalePacks(keeping names: Set<String>) throws -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: packsPath)) ?? []
        var removed: [String] = []
        for name in entries.sorted(by: { $0.precedesByCodePoint($1) }) {
            if name.hasPrefix(".odrpack-tmp-") {
                unlink(packsPath + "/" + name)
            } else if name.hasSuffix(".assetpack") && !names.contains(name) {
                unlink(packsPath + "/" + name)
                removed.append(name)
            }
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: outputPath)) ?? [] where name.contains(".odrpack-tmp-") {
            unlink(outputPath + "/" + name)
        }
        return removed
    }

    private func removeTemporaryFiles() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: packsPath)) ?? [] where name.hasPrefix(".odrpack-tmp-\(getpid())-") {
            unlink(packsPath + "/" + name)
        }
    }
}

/// The previous build's cache, opaque to callers.
public struct PreviousBuild: Sendable {
    let cache: BuildCache

    /// Whether the last build read and checked each of `resources` (sorted by path) with the same metadata,
    /// so planning can skip re-reading them. One merge of two sorted lists.
    public func alreadyChecked(_ resources: [ResolvedResource]) -> [Bool] {
        let files = cache.files
        var position = 0
        return resources.map { resource in
            while position < files.count && files[position].path.precedesByCodePoint(resource.path) { position += 1 }
            return position < files.count && files[position].stamp == resource.stamp && files[position].path.hasSameBytes(as: resource.path)
        }
    }
}

/// Loads the previous build's cache on another thread while the resources are planned.
public final class PreviousBuildLoader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var loaded: PreviousBuild?

    public init(_ builder: PackBuilder) {
        DispatchQueue.global().async {
            self.loaded = builder.loadCache()
            self.done.signal()
        }
    }

    /// Waits for the cache (once; later calls return at once).
    public lazy var previous: PreviousBuild = {
        done.wait()
        return loaded!
    }()
}

/// Reads a file only to learn its SHA-256 (for files whose metadata changed but whose pack may not have).
enum FileHasher {
    static func sha256(rootPath: String, file: ResolvedResource) throws -> String {
        let descriptor = open(rootPath + "/" + file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw BuildError.system("cannot open '\(file.path)'")
        }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: PackArchiver.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var hasher = SHA256Hasher()
        let total = try FileChunks.read(descriptor, path: file.path, buffer: buffer, limit: file.size) { hasher.update($0) }
        guard total == file.size else {
            throw BuildError.fileChanged("'\(file.path)' changed while it was being read: run the build again once it is stable")
        }
        return hasher.finalize()
    }
}
