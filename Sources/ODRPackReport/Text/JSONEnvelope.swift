import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// The envelope of every `--json` document (docs/commands.md#json): one object that opens with `"schemaVersion": 1`
/// and holds a `"diagnostics"` array, whatever the command; a command that fails (exit 2 or 64) prints the error
/// document instead, so a CI step that parses stdout never reads nothing.
package enum JSONEnvelope {
    package static let schemaVersion: Int64 = 1

    /// `document` with `schemaVersion` first and a `diagnostics` array (empty when the command has none); a document
    /// that has them already keeps its bytes.
    package static func wrap(_ document: JSONValue) -> JSONValue {
        guard case .object(var members) = document else { return document }
        if !members.contains(where: { $0.0 == "schemaVersion" }) {
            members.insert(("schemaVersion", .int(schemaVersion)), at: 0)
        }
        if !members.contains(where: { $0.0 == "diagnostics" }) { members.append(("diagnostics", .array([]))) }
        return .object(members)
    }

    /// A serialized object (build's document, spliced from the manifest it wrote): `"schemaVersion": 1` inserted as
    /// its first member when it does not open with one. Its diagnostics are there already.
    package static func wrap(serialized text: String) -> String {
        guard text.hasPrefix("{\n"), !text.hasPrefix("{\n  \"schemaVersion\": ") else { return text }
        return "{\n  \"schemaVersion\": \(schemaVersion),\n" + text.dropFirst(2)
    }

    /// The document of a command that could not do its job: `{"schemaVersion": 1, "error": {"code", "message"},
    /// "diagnostics": [...]}`.
    package static func error(code: String, message: String, diagnostics: [Diagnostic] = []) -> JSONValue {
        .object([
            ("schemaVersion", .int(schemaVersion)),
            ("error", .object([("code", .string(code)), ("message", .string(message))])),
            ("diagnostics", DiagnosticsDocument.json(diagnostics)),
        ])
    }

    /// The code of a failure that is no `ODRPackError` (an error odrpack did not expect): exit 2.
    package static let internalCode = "internal"
}
