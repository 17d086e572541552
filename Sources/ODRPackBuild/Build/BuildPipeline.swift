import Foundation
import ODRPackCore
import ODRPackPlatform

/// `odrpack build` as one library call: lock the output folder, take the up-to-date fast path when nothing changed,
/// else plan (reusing the check's scan and the last build's cache), write the packs and record the build.
/// The front end only parses, calls `run` and prints the outcome.
package struct BuildPipeline {
    package var manifestPath: String
    package var options: BuildOptions
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
        // A Background Assets build without a packager fails before it writes anything, the lock file included.
        let packager = options.format == .backgroundAssets
            ? try BackgroundAssetsPackager.resolve(command: options.backgroundAssetsPackager) : nil
        let lock = try OutputLock(folder: options.outputPath, wait: waitForLock, onWait: onWait)
        return try withExtendedLifetime(lock) {
            let check = UpToDateCheck(manifestPath: manifestPath, options: options)
            var scanned: FileTree?
            // Background Assets builds always plan: their commit compares what it writes (see `BackgroundAssetsOutput`).
            switch options.format == .odr ? check.run() : .changed(nil) {
            case let .upToDate(replay):
                if !json { return .upToDate(replay, json: nil) }
                // Unreadable as written: rebuild instead of replaying.
                if let document = replay.json() { return .upToDate(replay, json: document) }
            case let .changed(tree):
                scanned = tree
            }
            let builder = PackBuilder(options: options, progress: progress)
            let loader = PreviousBuildLoader(builder)
            let result: PlanResult
            do {
                result = try ProjectPlanner().plan(manifestPath: manifestPath, format: options.format, tree: scanned,
                                                   alreadyChecked: { loader.previous.alreadyChecked($0) })
            } catch {
                lock.removeFolderIfCreated()
                throw error
            }
            guard let plan = result.plan, let resolution = result.resolution, !result.diagnostics.hasErrors else {
                lock.removeFolderIfCreated()
                return .notBuilt(result)
            }
            if case let .success(output) = LocalFileSystem().resolvedPath(options.outputPath), output == resolution.rootPath {
                lock.removeLockFile()
                throw ODRPackError.unbuildable(
                    "the output folder '\(options.outputDirectory)' is resources-root: its packs would become resources; write the build to another folder")
            }
            if plan.format == .backgroundAssets && plan.backgroundAssets.hosting == .self {
                guard let prefix = options.urlPrefix else {
                    lock.removeFolderIfCreated()
                    throw ODRPackError.usage(
                        "the manifest's background-assets hosting is self, so the build needs --url-prefix URL: where site/ will be served from (the app's BAManifestURL is URL/download-manifest.json)")
                }
                guard let url = URL(string: prefix), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
                    lock.removeFolderIfCreated()
                    throw ODRPackError.usage(
                        "--url-prefix '\(prefix)' is not an http(s) URL with a host: devices download self-hosted packs from it, e.g. https://cdn.example.com/packs")
                }
            }
            let build = try builder.build(plan, rootPath: resolution.rootPath, previous: loader.previous, packager: packager)
            check.state(after: result, build: build).save(forOutput: options.outputPath)
            return .built(result, build)
        }
    }
}
