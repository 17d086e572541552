import ODRPackCore
import ODRPackFormats

/// Diagnostics in the `--json` documents (docs/commands.md): objects with every field, absent ones null.
package enum DiagnosticsDocument {
    /// In position order (`inPositionOrder`), as the text prints them.
    package static func json(_ diagnostics: [Diagnostic]) -> JSONValue {
        .array(
            diagnostics.inPositionOrder.map { diagnostic in
                .object([
                    ("severity", .string(diagnostic.severity.rawValue)),
                    ("code", .string(diagnostic.code.rawValue)),
                    ("message", .string(diagnostic.message)),
                    ("file", .optional(diagnostic.location?.file)),
                    ("line", .optional(diagnostic.location?.line)),
                    ("column", .optional(diagnostic.location?.column)),
                    ("subject", .optional(diagnostic.subject)),
                ])
            })
    }

    /// `validate --json`'s summary: the counts by severity.
    package static func summary(_ diagnostics: [Diagnostic]) -> JSONValue {
        .object([("errors", .int(Int64(diagnostics.errorCount))), ("warnings", .int(Int64(diagnostics.warningCount)))])
    }
}
