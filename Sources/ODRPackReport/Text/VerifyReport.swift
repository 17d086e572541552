import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackVerify

/// What `verify` prints: its diagnostics on stderr (as every command prints them) and a one-line verdict, or one JSON
/// document with the diagnostics in its `diagnostics` array.
package enum VerifyReport {
    package static func json(_ report: BuildVerifier.Report) -> JSONValue {
        .object([
            ("ok", .bool(report.ok)),
            (
                "packs",
                .array(
                    report.packs.map { pack in
                        .object([
                            ("id", .string(pack.id)), ("file", .string(pack.file)),
                            ("status", .string(pack.ok ? "ok" : "mismatch")),
                        ])
                    })
            ),
            ("extraArchives", .strings(report.extraArchives)),
            ("diagnostics", DiagnosticsDocument.json(report.allDiagnostics)),
            (
                "summary",
                .object([
                    ("packs", .int(Int64(report.packs.count))),
                    ("failed", .int(Int64(report.packs.filter { !$0.ok }.count))),
                ])
            ),
        ])
    }

    /// - Parameter directory: the build folder as given, for the next step's command.
    package static func verdict(_ report: BuildVerifier.Report, directory: String = "DIR") -> String {
        let count = report.packs.count
        if report.ok { return "verified \(count) pack\(count == 1 ? "" : "s"): all match \(BuildManifest.fileName)\n" }
        let failed = report.packs.filter { !$0.ok }.count
        let others = report.diagnostics.errorCount
        let extra = others == 0 ? "" : ", \(others) other problem\(others == 1 ? "" : "s")"
        // The build's cache trusts what it wrote: --no-cache rewrites every pack, not only those it knows changed.
        return """
            \(failed) of \(count) pack\(count == 1 ? "" : "s") \(failed == 1 ? "does" : "do") not match \
            \(BuildManifest.fileName)\(extra)
            next: build '\(TerminalText.escaped(directory))' again with the command that made it, adding --no-cache \
            (odrpack build MANIFEST --output \(TerminalText.escaped(directory)) --no-cache and its other options), then \
            verify it again

            """
    }
}
