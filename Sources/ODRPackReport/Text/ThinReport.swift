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
            ("unchanged", .bool(result.unchanged)), ("diagnostics", DiagnosticsDocument.json(result.diagnostics)),
        ])
    }

    /// The `thin --json` document written as it is made (docs/build-output.md#bounded): `json(_:)`'s bytes, the removed
    /// paths read from the manifest and written a path at a time, so neither they nor the document's text are ever held
    /// whole.
    package static func writeJSON(_ result: AppThinner.Result, to stream: inout JSONObjectStream) throws {
        try stream.member("schemaVersion", .int(JSONEnvelope.schemaVersion))
        try stream.member("removed", strings: result.removed)
        try stream.member("removedBytes", .int(result.removedBytes))
        try stream.member("embedded", .strings(result.embedded))
        try stream.member("installed", .strings(result.installed))
        try stream.member("infoPlistKeys", .strings(result.infoPlistKeys))
        try stream.member("dryRun", .bool(result.dryRun))
        try stream.member("unchanged", .bool(result.unchanged))
        try stream.member("diagnostics", DiagnosticsDocument.json(result.diagnostics))
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
