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
    /// The manifest's `allow` lists, for what the build finds in the output folder (docs/manifest.md#allowed-warnings).
    let allow: AllowList

    init(options: BuildOptions, progress: BuildProgress = BuildProgress.silent, allow: AllowList = AllowList()) {
        self.options = options
        self.progress = progress
        self.allow = allow
    }

    /// What the last build into the output folder learned (empty with `--no-cache`): load it once,
    /// plan with its `alreadyChecked(_:)`, then pass it to `build`.
    func loadState() -> PreviousBuild {
        PreviousBuild(
            state: options.useCache
                ? BuildState.load(forOutput: options.outputPath, environment: options.environment) : BuildState())
    }

    /// Builds `plan` with the format's build made here: for callers that hold no `FormatBuild` (the tests), with
    /// the Background Assets packager and live download manifest given rather than resolved from the options.
    func build(
        _ plan: PackPlan, rootPath: String, previous previousBuild: PreviousBuild? = nil,
        packager: BackgroundAssetsPackager? = nil, published: PublishedDownloadManifest? = nil
    ) throws -> BuildResult {
        let format: any FormatBuild =
            if let packager {
                BackgroundAssetsBuild(packager: packager, published: published)
            } else {
                try plan.format.building.prepare(options)
            }
        let folder = try BuildFolderSession.open(
            forWriting: options.outputPath, shownAs: options.outputDirectory, wait: true)
        return try build(plan, rootPath: rootPath, previous: previousBuild, format: format, folder: folder)
    }

    /// Writes `plan`'s packs into `folder` through the output `format` makes, reusing what the last build
    /// (`previous`, else the state loaded here) wrote.
    func build(
        _ plan: PackPlan, rootPath: String, previous previousBuild: PreviousBuild?, format: any FormatBuild,
        folder: BuildFolderSession.Writer
    ) throws -> BuildResult {
        let previous = (previousBuild ?? loadState()).state
        // What the folder's last build wrote, and so all this one may replace or remove (docs/build-output.md#ownership).
        let transaction = try BuildFolderTransaction(
            folder: folder, state: previous, needsManifest: plan.format.building.ownershipReadsManifest)
        let ownership = transaction.ownership
        let output = try format.output(plan: plan, options: options, rootPath: rootPath, transaction: transaction)
        try ownership.check(
            outputDirectory: options.outputDirectory, format: plan.format, rootPath: rootPath, folders: output.folders,
            writes: output.writes)
        // Before anything moves: what odrpack did not write is what stands there now. Under --warnings-as-errors such a
        // warning stops the build here, before anything is written (docs/commands.md#scripts).
        let (foreign, allowed) = allow.partition(output.foreignFiles())
        if options.warningsAsErrors, !foreign.isEmpty {
            throw StoppedByWarnings(diagnostics: foreign, allowed: allowed)
        }
        try output.prepare()
        let reuse = try PackReuse(
            plan: plan, previous: previous, rootPath: rootPath, archiveKeys: output.archiveKeys,
            fileNames: output.fileNames, packsFolder: output.packsFolder, jobs: options.jobs)
        if reuse.reused.count == plan.packs.count, output.isUnchanged(facts: reuse.facts, previous: previous) {
            return BuildResult(
                plan: plan, makeManifest: { [facts = reuse.facts] in BuildManifest(plan: plan, archives: facts) },
                facts: reuse.facts,
                options: options, written: [], reused: plan.packs.map(\.id).sorted(), removed: [],
                bytesRead: reuse.bytesRead, bytesWritten: 0, state: previous, diagnostics: foreign, allowed: allowed)
        }
        var result = try write(plan, output: output, reuse: reuse, previous: previous, foreign: foreign)
        result.allowed = allowed
        return result
    }

    /// Writes the packs reuse could not keep, on every core, then commits the output.
    private func write(
        _ plan: PackPlan, output: any PackOutput, reuse: PackReuse, previous: BuildState, foreign: [Diagnostic]
    ) throws -> BuildResult {
        var reuse = reuse
        let packs = plan.packs
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
