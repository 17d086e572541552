import Foundation

/// `odrpack build` as one library call: lock the output folder, take the up-to-date fast path when nothing changed,
/// else plan (reusing the check's scan and the last build's cache), write the packs and record the build.
/// The front end only parses, calls `run` and prints the outcome.
public struct BuildPipeline {
    public var manifestPath: String
    public var options: BuildOptions
    /// Wait for another build of the same folder (false: fail at once, exit 2).
    public var waitForLock = true
    /// The `build --json` document is wanted: an up-to-date build reads it back from the last build's manifest.
    public var json = false
    public var progress = BuildProgress(style: .none)

    public init(manifestPath: String, options: BuildOptions) {
        self.manifestPath = manifestPath
        self.options = options
    }

    /// - Parameter onWait: called once when another build holds the folder and this one starts waiting.
    /// - Throws: `ODRPackError` when the tool cannot do its job (exit 2).
    public func run(onWait: () -> Void) throws -> BuildOutcome {
        let lock = try OutputLock(folder: options.outputPath, wait: waitForLock, onWait: onWait)
        return try withExtendedLifetime(lock) {
            let check = UpToDateCheck(manifestPath: manifestPath, options: options)
            var scanned: FileTree?
            switch check.run() {
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
                result = try ProjectPlanner().plan(manifestPath: manifestPath, tree: scanned,
                                                   alreadyChecked: { loader.previous.alreadyChecked($0) })
            } catch {
                lock.removeFolderIfCreated()
                throw error
            }
            guard let plan = result.plan, let resolution = result.resolution, !result.diagnostics.hasErrors else {
                lock.removeFolderIfCreated()
                return .notBuilt(result)
            }
            let build = try builder.build(plan, rootPath: resolution.rootPath, previous: loader.previous)
            check.save(result, build: build)
            return .built(result, build)
        }
    }
}

/// What `BuildPipeline.run` did.
public enum BuildOutcome {
    /// Nothing changed since the last build: its diagnostics and figures, and with `json` its document.
    case upToDate(UpToDateReplay, json: String?)
    /// The project breaks a rule (exit 1): nothing was written.
    case notBuilt(PlanResult)
    case built(PlanResult, BuildResult)

    public var diagnostics: [Diagnostic] {
        switch self {
        case let .upToDate(replay, _): return replay.diagnostics
        case let .notBuilt(result), let .built(result, _): return result.diagnostics
        }
    }

    /// The figures of a build that happened (nil when nothing was written for errors), with the command's time.
    public func summary(seconds: Double) -> BuildSummary? {
        switch self {
        case let .upToDate(replay, _): return replay.summary(seconds: seconds)
        case .notBuilt: return nil
        case let .built(_, build): return build.summary(seconds: seconds)
        }
    }

    /// The `build --json` document (SPEC 6): odrpack-manifest.json's members, the diagnostics and what was done;
    /// only the diagnostics when nothing was built.
    public var jsonDocument: String {
        switch self {
        case let .upToDate(replay, document):
            return document ?? JSONValue.object([("diagnostics", DiagnosticsDocument.json(replay.diagnostics))]).serialized()
        case let .notBuilt(result):
            return JSONValue.object([("diagnostics", DiagnosticsDocument.json(result.diagnostics))]).serialized()
        case let .built(result, build):
            var members = BuildManifest(plan: build.plan, archives: build.facts).jsonMembers
            members.append(("diagnostics", DiagnosticsDocument.json(result.diagnostics)))
            members.append(("build", .object([
                ("written", .strings(build.written)), ("reused", .strings(build.reused)), ("removed", .strings(build.removed)),
            ])))
            return JSONValue.object(members).serialized()
        }
    }

    /// The plan behind a GitHub step summary, when there is one to show.
    public var plan: PackPlan? {
        switch self {
        case .upToDate: return nil
        case let .notBuilt(result): return result.readablePlan
        case let .built(_, build): return build.plan
        }
    }
}
