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

    /// - Parameter onWait: called once when another build holds the folder and this one starts waiting.
    /// - Throws: `ODRPackError` when the tool cannot do its job (exit 2).
    package func run(onWait: () -> Void) throws -> BuildOutcome {
        // A build whose format cannot run (a Background Assets build without a packager) fails before it writes
        // anything, the lock file included.
        let building = options.format.building
        var format = try building.prepare(options)
        let folder = try BuildFolderSession.open(
            forWriting: options.outputPath, shownAs: options.outputDirectory, wait: waitForLock, onWait: onWait)
        // One exit for every way a build ends before its commit.
        var finished = false
        defer { if !finished { folder.abandon() } }
        let outcome = try withExtendedLifetime(folder) { () throws -> BuildOutcome in
            let check = UpToDateCheck(manifestPath: manifestPath, options: options)
            var scanned: FileTree?
            // Background Assets builds always plan: their commit compares what it writes (see `BackgroundAssetsOutput`).
            switch building.checksUpToDate ? check.run() : .changed(nil) {
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
            result.diagnostics += try format.check(plan, options: options)
            if result.diagnostics.stopsWriting(warningsAsErrors: options.warningsAsErrors) { return .notBuilt(result) }
            var build = try builder.build(
                plan, rootPath: resolution.rootPath, previous: loader.previous, format: format, folder: folder)
            result.diagnostics += build.diagnostics
            build.stateWarning = check.state(after: result, build: build).save(forOutput: options.outputPath)
            // The manifest as written, opened under the lock, for the --json document (never made again whole).
            if json { build.writtenManifest = openedDocument(options.outputPath.slashJoined(BuildManifest.fileName)) }
            return .built(result, build)
        }
        if case .notBuilt = outcome {} else { finished = true }
        return outcome
    }
}
