import ODRPackCore
import ODRPackFormats
import ODRPackReport
import ODRPackVerify

/// What `ipa` prints (docs/store.md#ipa).
package enum IPAReport {
    /// The `ipa --json` document: `{"ipa", "size", "app": {"name", "bundleId", "removedFiles", "removedBytes"},
    /// "packs", "diagnostics"}`.
    package static func json(_ result: IPABuilder.Result) -> JSONValue {
        .object([
            ("ipa", result.ipa.map { .string($0) } ?? .null), ("size", .int(result.size)),
            (
                "app",
                .object([
                    ("name", .string(result.appName)), ("bundleId", result.bundleId.map { .string($0) } ?? .null),
                    ("removedFiles", .int(Int64(result.removedFiles))), ("removedBytes", .int(result.removedBytes)),
                ])
            ),
            ("packs", .strings(result.packs)),
            // Packs that do not match their manifest: verify's diagnostics say where.
            ("diagnostics", DiagnosticsDocument.json((result.verifyReport?.allDiagnostics ?? []) + result.diagnostics)),
        ])
    }

    /// The line a person reads when the IPA is written.
    package static func summary(_ result: IPABuilder.Result) -> String {
        let files = "\(result.removedFiles) file\(result.removedFiles == 1 ? "" : "s")"
        let packs = "\(result.packs.count) pack\(result.packs.count == 1 ? "" : "s")"
        return """
            Wrote \(result.ipa ?? "") (\(ByteCount.format(result.size))): \(result.appName) without \(files) \
            (\(ByteCount.format(result.removedBytes))), and \(packs) in Payload/OnDemandResources/

            """
    }
}
