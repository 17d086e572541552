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
        case let .upToDate(replay, _): return replay.diagnostics
        case let .notBuilt(result), let .built(result, _): return result.diagnostics
        }
    }

    /// The figures of a build that happened (nil when nothing was written for errors), with the command's time.
    package func summary(seconds: Double) -> BuildSummary? {
        switch self {
        case let .upToDate(replay, _): return replay.summary(seconds: seconds)
        case .notBuilt: return nil
        case let .built(_, build): return build.summary(seconds: seconds)
        }
    }

    /// The `build --json` document (docs/commands.md): odrpack-manifest.json's members, the diagnostics and what was done;
    /// only the diagnostics when nothing was built.
    package var jsonDocument: String {
        switch self {
        case let .upToDate(replay, document):
            return document ?? JSONValue.object([("diagnostics", DiagnosticsDocument.json(replay.diagnostics))]).serialized()
        case let .notBuilt(result):
            return JSONValue.object([("diagnostics", DiagnosticsDocument.json(result.diagnostics))]).serialized()
        case let .built(result, build):
            var members = build.manifest.jsonMembers
            members.append(("diagnostics", DiagnosticsDocument.json(result.diagnostics)))
            members.append(("build", .object([
                ("written", .strings(build.written)), ("reused", .strings(build.reused)), ("removed", .strings(build.removed)),
            ])))
            return JSONValue.object(members).serialized()
        }
    }

    /// The plan behind a GitHub step summary, when there is one to show.
    package var plan: PackPlan? {
        switch self {
        case .upToDate: return nil
        case let .notBuilt(result): return result.readablePlan
        case let .built(_, build): return build.plan
        }
    }
}
