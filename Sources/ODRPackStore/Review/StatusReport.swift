import ODRPackCore
import ODRPackFormats
import ODRPackReport

/// What `status` prints (docs/store.md#status): a table, or one `--json` document.
package enum StatusReport {
    static let headers = [
        "ASSET PACK ID", "VERSION", "STATE", "INTERNAL BETA", "APP STORE", "LOCALE", "PLATFORMS", "CURRENT",
    ]

    /// One row per pack, columns padded to their widest cell; `-` where there is nothing.
    package static func table(_ outcome: StatusOutcome) -> String {
        let rows =
            [headers]
            + outcome.packs.map { pack in
                [
                    pack.assetPackId, pack.version ?? "-", pack.state?.rawValue ?? "-", pack.internalBeta ?? "-",
                    pack.appStore ?? "-", pack.locale ?? "-", pack.platforms?.joined(separator: ",") ?? "-",
                    pack.current ? "yes" : "no",
                ]
            }
        var widths = headers.map { _ in 0 }
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        var text = ""
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                line +=
                    index == row.count - 1
                    ? cell : cell.padding(toLength: widths[index] + 2, withPad: " ", startingAt: 0)
            }
            text += line + "\n"
        }
        return text + "app \(outcome.app): \(outcome.packs.count) pack\(outcome.packs.count == 1 ? "" : "s")\n"
    }

    /// `{"schemaVersion": 1, "app", "packs": [{"assetPackId", "version", "state", "internalBeta", "appStore",
    /// "locale", "platforms", "current"}], "diagnostics": [...]}`
    package static func json(_ outcome: StatusOutcome) -> JSONValue {
        .object([
            ("schemaVersion", .int(1)),
            ("app", .string(outcome.app)),
            (
                "packs",
                .array(
                    outcome.packs.map { pack in
                        .object([
                            ("assetPackId", .string(pack.assetPackId)),
                            ("version", .optional(pack.version)),
                            ("state", .optional(pack.state?.rawValue)),
                            ("internalBeta", .optional(pack.internalBeta)),
                            ("appStore", .optional(pack.appStore)),
                            ("locale", .optional(pack.locale)),
                            ("platforms", pack.platforms.map(JSONValue.strings) ?? .null),
                            ("current", .bool(pack.current)),
                        ])
                    })
            ),
            ("diagnostics", DiagnosticsDocument.json(outcome.diagnostics)),
        ])
    }
}
