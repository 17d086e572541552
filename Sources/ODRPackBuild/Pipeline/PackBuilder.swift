import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// Writes every pack of a valid plan into the output folder: in parallel, incrementally and atomically.
/// Three jobs: `PackReuse` decides what the last build already wrote, the format's writers
/// (`PackFormatWriter`) write the rest beside their final names on every core, and the format's `PackOutput`
/// commits them with the manifest last, so a build that fails or is killed never leaves a manifest that lies.
struct PackBuilder: Sendable {
    let options: BuildOptions
    let progress: BuildProgress

    init(options: BuildOptions, progress: BuildProgress = BuildProgress(style: .none)) {
        self.options = options
        self.progress = progress
    }

    /// What the last build into the output folder learned (empty with `--no-cache`): load it once,
    /// plan with its `alreadyChecked(_:)`, then pass it to `build`.
    func loadState() -> PreviousBuild {
        PreviousBuild(state: options.useCache ? BuildState.load(forOutput: options.outputPath) : BuildState())
    }

    /// The output of the plan's format: ODR packs, or Background Assets packs made by `packager`, numbered from
    /// `published` when the build was given the live download manifest.
    func output(
        for plan: PackPlan, rootPath: String, packager: BackgroundAssetsPackager?,
        published: PublishedDownloadManifest?,
        ownership: OutputOwnership
    ) throws -> any PackOutput {
        switch plan.format {
        case .odr:
            return OnDemandResourcesOutput(plan: plan, options: options, rootPath: rootPath, ownership: ownership)
        case .backgroundAssets:
            guard let packager else {
                throw ODRPackError.commandFailed("a Background Assets build needs a packager (--ba-package)")
            }
            return try BackgroundAssetsOutput(
                plan: plan, options: options, packager: packager, published: published, rootPath: rootPath,
                ownership: ownership)
        }
    }

    func build(
        _ plan: PackPlan, rootPath: String, previous previousBuild: PreviousBuild? = nil,
        packager: BackgroundAssetsPackager? = nil, published: PublishedDownloadManifest? = nil
    ) throws -> BuildResult {
        let previous = (previousBuild ?? loadState()).state
        // What the folder's last build wrote, and so all this one may replace or remove (docs/build-output.md#ownership).
        let ownership = OutputOwnership.load(
            outputPath: options.outputPath, state: previous, needsManifest: plan.format == .backgroundAssets)
        let output = try output(
            for: plan, rootPath: rootPath, packager: packager, published: published, ownership: ownership)
        try ownership.check(
            outputPath: options.outputPath, outputDirectory: options.outputDirectory, format: plan.format,
            rootPath: rootPath, folders: output.folders, writes: output.writes)
        let foreign =
            plan.format == .odr
            ? ownership.foreignFiles(
                outputPath: options.outputPath, outputDirectory: options.outputDirectory,
                packsFolder: AppleManifests.packsFolder) : []
        try output.prepare()
        let packs = plan.packs
        var reuse = try PackReuse(
            plan: plan, previous: previous, rootPath: rootPath, archiveKeys: output.archiveKeys,
            fileNames: output.fileNames, packsPath: output.packsPath, jobs: options.jobs)
        if reuse.reused.count == packs.count, output.isUnchanged(facts: reuse.facts, previous: previous) {
            return BuildResult(
                plan: plan, makeManifest: { [facts = reuse.facts] in BuildManifest(plan: plan, archives: facts) },
                facts: reuse.facts,
                options: options, written: [], reused: packs.map(\.id).sorted(), removed: [],
                bytesRead: reuse.bytesRead, bytesWritten: 0, state: previous, diagnostics: foreign)
        }

        let toWrite = reuse.toWrite
        progress.begin(packs: toWrite.count, bytes: toWrite.lazy.map { packs[$0].size }.saturatingSum)
        let written: [PackArchiveFacts]
        let entries = output.reusableEntries(toWrite: toWrite, known: reuse.known, previous: previous)
        do {
            let spares = CompressorPool(options: options, capacity: options.jobs - 1)
            written = try parallelMap(
                toWrite, jobs: options.jobs, perWorker: { output.makeWriter(spares: spares, entries: entries) }
            ) { writer, index in
                writer.onBytes = { [progress] in progress.add(bytes: $0) }
                let facts = try writer.write(
                    packs[index], index: index, known: reuse.known.forWriter(pack: index),
                    to: output.temporaryPath(forPack: index))
                progress.packFinished()
                // The pack's entries were freed on this worker's thread: give its heap's free pages back, or the
                // next packs and the documents grow the process past what it holds (docs/build-output.md#bounded).
                SystemCall.releaseFreedMemory()
                return facts
            }
        } catch {
            progress.end()
            output.removeTemporaryFiles()
            throw error
        }
        progress.end()
        reuse.bytesRead =
            [reuse.bytesRead, toWrite.lazy.map { packs[$0].size }.saturatingSum - entries.bytes].saturatingSum
        for (index, result) in zip(toWrite, written) { reuse.facts[packs[index].id] = result }

        let (manifest, removed, next): (@Sendable () -> BuildManifest, [String], BuildState)
        do {
            (manifest, removed, next) = try output.commit(facts: reuse.facts, written: toWrite, previous: previous)
        } catch {
            output.removeTemporaryFiles()
            throw error
        }
        return BuildResult(
            plan: plan, makeManifest: manifest, facts: reuse.facts, options: options,
            written: toWrite.map { packs[$0].id }.sorted(), reused: reuse.reused.map { packs[$0].id }.sorted(),
            removed: removed, bytesRead: reuse.bytesRead,
            bytesWritten: toWrite.lazy.map { reuse.facts[packs[$0].id]?.archiveSize ?? 0 }.saturatingSum, state: next,
            diagnostics: foreign)
    }
}
