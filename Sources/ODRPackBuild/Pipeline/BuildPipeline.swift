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
    package var progress = BuildProgress(style: .none)

    package init(manifestPath: String, options: BuildOptions) {
        self.manifestPath = manifestPath
        self.options = options
    }

    /// The options a Background Assets build's hosting needs (docs/background-assets.md), the live download manifest
    /// (`--published`, read once here), and `ba-pack-dropped` for every pack it lists that this build does not make.
    /// - Throws: `ODRPackError.usage` (exit 64) for options that do not fit the hosting; exit 2 for an unreadable file.
    static func checkBackgroundAssets(_ plan: PackPlan, options: BuildOptions) throws
        -> (diagnostics: [Diagnostic], published: PublishedDownloadManifest?)
    {
        guard plan.backgroundAssets.hosting == .self else {
            if options.urlPrefix != nil {
                throw ODRPackError.usage(
                    """
                    --url-prefix does not apply to a Background Assets build with hosting apple: App Store Connect \
                    hosts the packs; leave it out, or set 'hosting: self' in the manifest's background-assets section
                    """
                )
            }
            if options.publishedPath != nil {
                throw ODRPackError.usage(
                    """
                    --published applies to self-hosted Background Assets builds only (hosting: self): App Store \
                    Connect numbers Apple-hosted versions itself
                    """
                )
            }
            return ([], nil)
        }
        guard let prefix = options.urlPrefix else {
            throw ODRPackError.usage(
                """
                the manifest's background-assets hosting is self, so the build needs --url-prefix https://host/path: \
                where site/ will be served from (the app's BAManifestURL is URL/download-manifest.json)
                """
            )
        }
        if let problem = URLPrefix.problem(prefix, requireHTTPS: true) { throw ODRPackError.usage(problem) }
        guard let publishedPath = options.publishedPath else { return ([], nil) }
        let published = try PublishedDownloadManifest.load(publishedPath)
        let built = Set(plan.packs.map(\.assetPackID))
        let dropped = published.packs.keys.filter { !built.contains($0) }.sorted().map { id -> Diagnostic in
            .warning(
                .baPackDropped,
                """
                the live download manifest '\(publishedPath)' lists asset pack '\(id)', which this build no longer \
                makes: devices delete packs the manifest stops listing, also for app versions already installed; keep \
                its tags if apps still use it
                """,
                subject: id)
        }
        return (dropped, published)
    }

    /// - Parameter onWait: called once when another build holds the folder and this one starts waiting.
    /// - Throws: `ODRPackError` when the tool cannot do its job (exit 2).
    package func run(onWait: () -> Void) throws -> BuildOutcome {
        // A Background Assets build without a packager fails before it writes anything, the lock file included.
        let packager =
            options.format == .backgroundAssets
            ? try BackgroundAssetsPackager.resolve(command: options.backgroundAssetsPackager) : nil
        let lock: OutputLock
        do {
            lock = try OutputLock(
                folder: options.outputPath, fileName: BuildFolder.lockFileName, wait: waitForLock, onWait: onWait)
        } catch ODRPackError.folderLocked {
            throw ODRPackError.folderLocked(
                """
                another odrpack build or thin is using '\(options.outputDirectory)': wait for it to finish, or run \
                without --no-wait to wait
                """
            )
        }
        // One exit for every way a build ends before its commit: a folder this build made, or one that holds no
        // build, keeps no lock file (it would mark a user's folder as a build folder, which resolution skips).
        var finished = false
        defer {
            if !finished {
                lock.removeIfNotABuildFolder(markers: [BuildManifest.fileName, OutputOwnership.journalName])
            }
        }
        let outcome = try withExtendedLifetime(lock) { () throws -> BuildOutcome in
            let check = UpToDateCheck(manifestPath: manifestPath, options: options)
            var scanned: FileTree?
            // Background Assets builds always plan: their commit compares what it writes (see `BackgroundAssetsOutput`).
            switch options.format == .odr ? check.run() : .changed(nil) {
            case .upToDate(let replay):
                if !json { return .upToDate(replay, manifest: nil) }
                // Unreadable as written: rebuild instead of replaying.
                if let document = replay.manifestDocument() { return .upToDate(replay, manifest: document) }
            case .changed(let tree):
                scanned = tree
            }
            let builder = PackBuilder(options: options, progress: progress)
            let loader = PreviousBuildLoader(builder)
            // Handed over: held here too, the check's scan would outlive planning (77 bytes a file), and resolution's
            // sort and walk would copy its folders instead of freeing them.
            var result = try ProjectPlanner().plan(
                manifestPath: manifestPath, format: options.format, tree: FileTreeHandOff(scanned.take()),
                alreadyChecked: { loader.previous.alreadyChecked($0) })
            guard let plan = result.plan, let resolution = result.resolution,
                !result.diagnostics.stopsWriting(warningsAsErrors: options.warningsAsErrors)
            else {
                return .notBuilt(result)
            }
            var published: PublishedDownloadManifest?
            if plan.format == .backgroundAssets {
                let checked = try Self.checkBackgroundAssets(plan, options: options)
                result.diagnostics += checked.diagnostics
                published = checked.published
                if result.diagnostics.stopsWriting(warningsAsErrors: options.warningsAsErrors) {
                    return .notBuilt(result)
                }
            }
            var build = try builder.build(
                plan, rootPath: resolution.rootPath, previous: loader.previous, packager: packager, published: published
            )
            result.diagnostics += build.diagnostics
            build.stateWarning = check.state(after: result, build: build).save(forOutput: options.outputPath)
            // The manifest as written, opened under the lock, for the --json document (never made again whole).
            if json { build.writtenManifest = openedDocument(options.outputPath + "/" + BuildManifest.fileName) }
            return .built(result, build)
        }
        if case .notBuilt = outcome {} else { finished = true }
        return outcome
    }
}
