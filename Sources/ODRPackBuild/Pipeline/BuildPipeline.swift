import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// `odrpack build` as one library call: lock the output folder, take the up-to-date fast path when nothing changed,
/// else plan (reusing the check's scan and the last build's cache), write the packs and record the build.
/// The front end only parses, calls `run` and prints the outcome.
package struct BuildPipeline {
    package let manifestPath: String
    package let options: BuildOptions
    /// Wait for another build of the same folder (false: fail at once, exit 2).
    package var waitForLock = true
    /// The `build --json` document is wanted: an up-to-date build reads it back from the last build's manifest.
    package var json = false
    package var progress = BuildProgress.silent

    package init(manifestPath: String, options: BuildOptions) {
        self.manifestPath = manifestPath
        self.options = options
    }

    /// - Parameter onWait: called once when another build holds the folder and this one starts waiting.
    /// - Throws: `ODRPackError` when the tool cannot do its job (exit 2).
    package func run(onWait: () -> Void) throws -> BuildOutcome {
        // Under --input-root, nothing outside it is read, not even for the up-to-date check (docs/commands.md#input-root).
        try options.inputRoot?.check(manifestPath: manifestPath)
        try options.refuseTextOnlyOutput()
        // A build whose format cannot run (a Background Assets build without a packager) fails before it writes
        // anything, the lock file included.
        let building = options.format.building
        var format = try building.prepare(options)
        let folder = try BuildFolderSession.open(
            forWriting: options.outputPath, shownAs: options.outputDirectory, wait: waitForLock,
            onWait: onWait)
        // One exit for every way a build ends before its commit.
        var finished = false
        defer { if !finished { folder.abandon() } }
        let outcome = try withExtendedLifetime(folder) { () throws -> BuildOutcome in
            let check = UpToDateCheck(manifestPath: manifestPath, options: options)
            var scanned: FileTree?
            // Background Assets builds always plan: their commit compares what it writes (see `BackgroundAssetsOutput`).
            switch building.checksUpToDate ? check.run() : .changed(nil) {
            case .upToDate(let replay):
                // A warning under --warnings-as-errors stops the build as an error does: planned again, it ends
                // with nothing written, never as a build that reports success (docs/commands.md#scripts: one gate).
                guard !replay.diagnostics.stopsWriting(warningsAsErrors: options.warningsAsErrors) else { break }
                if !json { return .upToDate(replay, manifest: nil) }
                // Unreadable as written: rebuild instead of replaying.
                if let document = replay.manifestDocument() { return .upToDate(replay, manifest: document) }
            case .changed(let tree):
                scanned = tree
            }
            let loader = PreviousBuildLoader(PackBuilder(options: options))
            // A clean build's writers read every resource from its start: planning leaves the executable-content check
            // to them, and each file is opened once, not twice (docs/performance.md#the-content-check).
            let leftToWriters = Locked(false)
            let writersCanCheck = building.writersReadEveryResource(options)
            // Handed over: held here too, the check's scan would outlive planning (77 bytes a file), and resolution's
            // sort and walk would copy its folders instead of freeing them.
            let planned = try ProjectPlanner().plan(
                manifestPath: manifestPath, format: options.format, platform: options.platform,
                tree: FileTreeHandOff(scanned.take()),
                alreadyChecked: { resources in
                    let previous = loader.previous
                    guard writersCanCheck, previous.state.files.isEmpty else {
                        return previous.alreadyChecked(resources)
                    }
                    leftToWriters.withLock { $0 = true }
                    return Array(repeating: true, count: resources.count)
                })
            if leftToWriters.withLock({ $0 }) {
                return try buildCheckingWhileWriting(
                    consume planned, format: &format, loader: loader, folder: folder, check: check)
            }
            return try build(planned, format: &format, loader: loader, folder: folder, check: check)
        }
        if case .notBuilt = outcome {} else { finished = true }
        return outcome
    }

    /// A plan through the format's checks, then its packs, the state and the `--json` document.
    private func build(
        _ planned: PlanResult, format: inout any FormatBuild, loader: PreviousBuildLoader,
        folder: BuildFolderSession.Writer, check: UpToDateCheck, checksContentWhileWriting: Bool = false
    ) throws -> BuildOutcome {
        let (result, buildable) = try checked(planned, format: &format)
        guard buildable, let plan = result.plan, let resolution = result.resolution else { return .notBuilt(result) }
        var options = options
        options.checksContentWhileWriting = checksContentWhileWriting
        let allow = result.manifest?.allow ?? AllowList()
        var build: BuildResult
        do {
            build = try PackBuilder(options: options, progress: progress, allow: allow).build(
                plan, rootPath: resolution.rootPath, previous: loader.previous, format: format, folder: folder)
        } catch let stop as StoppedByWarnings {
            var stopped = result
            stopped.diagnostics += stop.diagnostics
            stopped.allowed += stop.allowed
            return .notBuilt(stopped)
        }
        var built = result
        built.diagnostics += build.diagnostics
        built.allowed += build.allowed
        build.stateWarning = check.state(after: built, build: build).save(
            forOutput: options.outputPath, environment: options.environment)
        // The manifest as written, opened under the lock, for the --json document (never made again whole).
        if json { build.writtenManifest = openedDocument(options.outputPath.joined(BuildManifest.fileName)) }
        return .built(built, build)
    }

    /// A plan with the format's checks' diagnostics; `buildable` false when the diagnostics stop the build.
    private func checked(_ planned: PlanResult, format: inout any FormatBuild) throws -> (
        result: PlanResult, buildable: Bool
    ) {
        var result = planned
        guard let plan = result.plan, result.resolution != nil, !stops(result) else { return (result, false) }
        let (reported, allowed) = (result.manifest?.allow ?? AllowList()).partition(
            try format.check(plan, options: options))
        result.diagnostics += reported
        result.allowed += allowed
        return (result, !stops(result))
    }

    private func stops(_ result: PlanResult) -> Bool {
        result.diagnostics.stopsWriting(warningsAsErrors: options.warningsAsErrors)
    }

    /// Builds a plan whose executable-content check planning left to the writers. When the build does not finish,
    /// it plans again with the check, for the outcome planning's check gives: its diagnostics (exit 1, nothing
    /// written) when the project breaks a rule, else the failure itself.
    /// - Parameter planned: consumed as the build starts, so that planning again never holds two plans.
    private func buildCheckingWhileWriting(
        _ planned: consuming PlanResult, format: inout any FormatBuild, loader: PreviousBuildLoader,
        folder: BuildFolderSession.Writer, check: UpToDateCheck
    ) throws -> BuildOutcome {
        let packsFolder = options.outputPath.joined(options.format.kind.packsFolder)
        let hadPacksFolder = SystemCall.status(packsFolder, followingLinks: false) != nil
        do {
            let outcome = try build(
                consume planned, format: &format, loader: loader, folder: folder, check: check,
                checksContentWhileWriting: true)
            if case .built = outcome { return outcome }
        } catch {
            // The writers removed their temporary files; the packs folder the attempt made goes too (empty, or kept).
            if !hadPacksFolder { SystemCall.removeFolderIfEmpty(packsFolder) }
            let failure = error
            let replanned: (result: PlanResult, buildable: Bool)
            do {
                var fresh = try options.format.building.prepare(options)
                replanned = try checked(checkedPlan(loader), format: &fresh)
            } catch {
                // Planning cannot run now (the manifest is being saved, say): the build's own failure is the answer.
                throw failure
            }
            if !replanned.buildable { return .notBuilt(replanned.result) }
            // The file the writer found to be code is not code now: it changed while the build read it.
            if let found = failure as? ExecutableContentFound {
                throw ODRPackError.changed(.whileRead(found.name))
            }
            throw failure
        }
        // Stopped before writing by other diagnostics: reported with the check's, as planning reports them.
        var fresh = try options.format.building.prepare(options)
        return try build(checkedPlan(loader), format: &fresh, loader: loader, folder: folder, check: check)
    }

    /// The plan again, with planning's own executable-content check of every file the last build did not check.
    private func checkedPlan(_ loader: PreviousBuildLoader) throws -> PlanResult {
        try ProjectPlanner().plan(
            manifestPath: manifestPath, format: options.format, platform: options.platform,
            alreadyChecked: { loader.previous.alreadyChecked($0) })
    }
}
