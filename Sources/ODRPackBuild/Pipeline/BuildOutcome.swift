import ODRPackCore
import ODRPackFormats

/// What `BuildPipeline.run` did.
package enum BuildOutcome {
    /// Nothing changed since the last build: its diagnostics and figures, and with `json` its document.
    case upToDate(UpToDateReplay, json: String?)
    /// The project breaks a rule (exit 1): nothing was written.
    case notBuilt(PlanResult)
    case built(PlanResult, BuildResult)

    package var diagnostics: [Diagnostic] {
        switch self {
        case .upToDate(let replay, _): return replay.diagnostics
        case .notBuilt(let result), .built(let result, _): return result.diagnostics
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

    /// The `build --json` document (docs/commands.md): odrpack-manifest.json's members, the diagnostics and what was done;
    /// only the diagnostics when nothing was built.
    package var jsonDocument: String {
        switch self {
        case .upToDate(let replay, let document):
            return document
                ?? JSONValue.object([("diagnostics", DiagnosticsDocument.json(replay.diagnostics))]).serialized()
        case .notBuilt(let result):
            return JSONValue.object([("diagnostics", DiagnosticsDocument.json(result.diagnostics))]).serialized()
        case .built(let result, let build):
            var members = build.manifest.jsonMembers
            members.append(("diagnostics", DiagnosticsDocument.json(result.diagnostics)))
            members.append(
                (
                    "build",
                    .object([
                        ("written", .strings(build.written)), ("reused", .strings(build.reused)),
                        ("removed", .strings(build.removed)),
                    ])
                ))
            return JSONValue.object(members).serialized()
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
