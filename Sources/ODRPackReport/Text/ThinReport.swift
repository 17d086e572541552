import ODRPackCore
import ODRPackFormats
import ODRPackThin

/// What `thin` prints.
package enum ThinReport {
    /// The `thin --json` document (docs/commands.md#thin).
    package static func json(_ result: AppThinner.Result) -> JSONValue {
        .object([
            ("removed", .strings(Array(result.removed))), ("removedBytes", .int(result.removedBytes)),
            ("embedded", .strings(result.embedded)), ("installed", .strings(result.installed)),
            ("infoPlistKeys", .strings(result.infoPlistKeys)), ("dryRun", .bool(result.dryRun)),
            ("diagnostics", DiagnosticsDocument.json(result.diagnostics)),
        ])
    }
}
