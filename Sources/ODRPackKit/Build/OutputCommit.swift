import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The last job of a build: moves the written packs into place, removes stale ones, then writes the plists,
/// odrpack-manifest.json (last) and the cache. Every temporary is named by `TemporaryName`, so the next build can
/// clear what a killed one left.
struct OutputCommit {
    let options: BuildOptions
    let outputPath: String
    let packsPath: String
    let temporaryPrefix = TemporaryName.processPrefix

    init(options: BuildOptions) {
        self.options = options
        outputPath = options.outputPath
        packsPath = outputPath + "/" + AppleManifests.packsFolder
    }

    var outputNames: [String] {
        [BuildManifest.fileName, AppleManifests.onDemandResourcesFile, options.applePlists.kept]
    }

    func makeFolders() throws {
        for path in [outputPath, packsPath] {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw ODRPackError.io("cannot create folder '\(path)': \(error.localizedDescription)", errno: EIO)
            }
        }
    }

    func temporaryPath(for pack: AssetPack) -> String { packsPath + "/" + TemporaryName.beside(pack.fileName) }

    /// Whether every output file is as the previous build recorded it and the packs folder holds just its packs.
    func outputsUnchanged(since previous: BuildCache, packCount: Int) -> Bool {
        outputNames.allSatisfy({ BuildCache.stamp(atPath: outputPath + "/" + $0) == previous.outputs[$0] })
            && access(outputPath + "/" + options.applePlists.removed, F_OK) != 0
            && (try? FileManager.default.contentsOfDirectory(atPath: packsPath))?.count == packCount
    }

    /// Commits a build whose packs `written` are at their temporary paths; returns the stale packs removed.
    func run(_ plan: PackPlan, rootPath: String, facts: [String: PackArchiveFacts], written: [Int], archiveKeys: [String],
             previous: BuildCache, fingerprint: String) throws -> [String] {
        let manifestPath = outputPath + "/" + BuildManifest.fileName
        let manifestText = BuildManifest(plan: plan, archives: facts).serialized()
        let manifestUnchanged = written.isEmpty && FileManager.default.contents(atPath: manifestPath) == Data(manifestText.utf8)
        // Nothing trusts the old manifest from here on.
        if !manifestUnchanged { unlink(manifestPath) }
        for index in written {
            try moveIntoPlace(temporaryPath(for: plan.packs[index]), to: packsPath + "/" + plan.packs[index].fileName)
        }
        let removed = try removeStalePacks(keeping: Set(plan.packs.map(\.fileName)))
        var cache = try makeCache(plan, rootPath: rootPath, facts: facts, archiveKeys: archiveKeys)
        try writeIfChanged(AppleManifests.onDemandResources(plan).binaryData(), to: outputPath + "/" + AppleManifests.onDemandResourcesFile)
        let (kept, dropped) = options.applePlists
        let apple = AppleManifests.assetPackManifest(plan, facts: facts, urlPrefix: options.urlPrefix,
                                                     packsURL: "http://127.0.0.1" + AppleManifests.percentEncoded(packsPath + "/"))
        try writeIfChanged(apple.binaryData(), to: outputPath + "/" + kept)
        if unlink(outputPath + "/" + dropped) != 0 && errno != ENOENT {
            throw ODRPackError.system("cannot remove the stale '\(outputPath)/\(dropped)'")
        }
        if !manifestUnchanged { try write(Data(manifestText.utf8), to: manifestPath) }
        // The cache only saves time: a build whose cache cannot be written still succeeded.
        let cachePath = BuildCache.location(for: outputPath)
        try? FileManager.default.createDirectory(atPath: (cachePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        cache.fingerprint = fingerprint
        for name in outputNames { cache.outputs[name] = BuildCache.stamp(atPath: outputPath + "/" + name) }
        if !written.isEmpty || cache != previous || !FileManager.default.fileExists(atPath: cachePath) {
            try? write(cache.serialized(), to: cachePath, unlinkingFirst: true)
        }
        return removed
    }

    /// The cache for this build's packs: files sorted by path, packs pointing at them.
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
            cache.files.append(.init(path: file.path, stamp: file.stamp, digest: facts[packs[item.pack].id]!.files[item.file]))
        }
        for (index, pack) in packs.enumerated() {
            let fact = facts[pack.id]!
            guard let archiveStamp = BuildCache.packStamp(atPath: packsPath + "/" + pack.fileName) else {
                throw ODRPackError.io("pack '\(pack.fileName)' vanished while the build was finishing", errno: ENOENT)
            }
            cache.packs[pack.id] = .init(fileName: pack.fileName, archiveKey: archiveKeys[index], archiveSize: fact.archiveSize,
                                         archiveSha256: fact.archiveSha256, contentHash: fact.contentHash,
                                         uncompressedSize: fact.uncompressedSize, archiveStamp: archiveStamp, files: positions[index])
        }
        return cache
    }

    /// Moves a written pack into place. What was there is removed first: a folder cannot be renamed over a full one,
    /// and renaming over a file makes ext4 flush the new one on the spot (auto_da_alloc), tens of milliseconds for
    /// a large archive. Packs move while no manifest vouches for the folder, so their brief absence is safe.
    private func moveIntoPlace(_ from: String, to: String) throws {
        try remove(to)
        guard rename(from, to) == 0 else { throw ODRPackError.system("cannot move '\(from)' to '\(to)'") }
    }

    /// Removes a file or a whole folder; a missing one is fine.
    private func remove(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw ODRPackError.io("cannot remove '\(path)': \(error.localizedDescription)", errno: EIO)
            }
        } else if unlink(path) != 0 && errno != ENOENT {
            throw ODRPackError.system("cannot remove '\(path)'")
        }
    }

    /// Writes beside the final name and renames into place; skips the write when the bytes are already there.
    private func writeIfChanged(_ data: Data, to path: String) throws {
        if FileManager.default.contents(atPath: path) == data { return }
        try write(data, to: path)
    }

    private func write(_ data: Data, to path: String, unlinkingFirst: Bool = false) throws {
        try AtomicFile.write(data, to: path, unlinkingFirst: unlinkingFirst)
    }

    /// Removes packs that no longer exist, and leftovers of interrupted builds. A pack that cannot be removed fails the build.
    private func removeStalePacks(keeping names: Set<String>) throws -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: packsPath)) ?? []
        var removed: [String] = []
        for name in entries.sorted(by: { $0.precedesByCodePoint($1) }) {
            if name.hasPrefix(TemporaryName.marker) {
                try remove(packsPath + "/" + name)
            } else if name.hasSuffix(".assetpack") && !names.contains(name) {
                try remove(packsPath + "/" + name)
                removed.append(name)
            }
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: outputPath)) ?? [] where name.contains(TemporaryName.marker) {
            try remove(outputPath + "/" + name)
        }
        return removed
    }

    /// Removes this build's temporaries after a failure.
    func removeTemporaryFiles() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: packsPath)) ?? [] where name.hasPrefix(temporaryPrefix) {
            try? remove(packsPath + "/" + name)
        }
    }
}
