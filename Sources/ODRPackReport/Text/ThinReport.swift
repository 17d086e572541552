import ODRPackCore
import ODRPackFormats
import ODRPackThin

/// What `thin` prints.
package enum ThinReport {
    /// The `thin --json` document (docs/commands.md#thin).
    package static func json(_ result: AppThinner.Result) -> JSONValue {
        .object([
            ("removed", removedArray(result.removed)), ("removedBytes", .int(result.removedBytes)),
            ("embedded", .strings(result.embedded)), ("installed", .strings(result.installed)),
            ("infoPlistKeys", .strings(result.infoPlistKeys)), ("dryRun", .bool(result.dryRun)),
            ("diagnostics", DiagnosticsDocument.json(result.diagnostics)),
        ])
    }

    /// The removed paths as the one-line JSON array `.strings` writes, serialized a path at a time as each is read
    /// from the manifest: a million removed files make no JSON value (and String) each.
    static func removedArray(_ removed: RemovedFiles) -> JSONValue {
        guard !removed.isEmpty else { return .strings([]) }
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, path) in removed.enumerated() {
            if index > 0 { bytes.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")]) }
            bytes.append(contentsOf: JSONValue.string(path).bytes(indent: 0, capacity: 0))
        }
        bytes.append(UInt8(ascii: "]"))
        return .written(bytes)
    }
}
