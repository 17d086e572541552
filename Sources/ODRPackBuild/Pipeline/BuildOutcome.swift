import ODRPackCore
import ODRPackPlatform

/// What `BuildPipeline.run` did.
package enum BuildOutcome {
    /// Nothing changed since the last build: its diagnostics and figures, and when the pipeline was asked for the
    /// `--json` document, the odrpack-manifest.json it starts with (opened, read as it is printed).
    case upToDate(UpToDateReplay, manifest: StreamedDocument?)
    /// The project breaks a rule (exit 1): nothing was written.
    case notBuilt(PlanResult)
    case built(PlanResult, BuildResult)

    package var diagnostics: [Diagnostic] {
        switch self {
        case .upToDate(let replay, _): return replay.diagnostics
        case .notBuilt(let result), .built(let result, _): return result.diagnostics
        }
    }

    /// The warnings the manifest allowed (docs/manifest.md#allowed-warnings).
    package var allowed: [Diagnostic] {
        switch self {
        case .upToDate(let replay, _): return replay.allowed
        case .notBuilt(let result), .built(let result, _): return result.allowed
        }
    }

    /// The figures of a build that happened (nil when nothing was written for errors), with the command's time.
    package func summary(seconds: Double) -> BuildSummary? {
        switch self {
        case .upToDate(let replay, _): return replay.summary(seconds: seconds)
        case .notBuilt: return nil
        case .built(_, let build): return build.summary(seconds: seconds)
        }
    }

    /// The plan behind a GitHub step summary, when there is one to show.
    package var plan: PackPlan? {
        switch self {
        case .upToDate: return nil
        case .notBuilt(let result): return result.readablePlan
        case .built(_, let build): return build.plan
        }
    }
}
