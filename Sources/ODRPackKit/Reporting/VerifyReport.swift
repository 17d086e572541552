/// What `verify` prints: problems on stderr and a one-line verdict, or one JSON document.
public enum VerifyReport {
    public static func json(_ report: BuildVerifier.Report) -> JSONValue {
        .object([
            ("ok", .bool(report.ok)),
            ("packs", .array(report.packs.map { pack in
                .object([("id", .string(pack.id)), ("file", .string(pack.file)),
                         ("status", .string(pack.ok ? "ok" : "mismatch")), ("problems", .strings(pack.problems))])
            })),
            ("extraArchives", .strings(report.extraArchives)),
            ("summary", .object([("packs", .int(Int64(report.packs.count))),
                                 ("failed", .int(Int64(report.packs.filter { !$0.ok }.count)))])),
        ])
    }

    /// Every problem as `file: error: message`, like a compiler.
    public static func problems(_ report: BuildVerifier.Report) -> String {
        var text = ""
        for pack in report.packs where !pack.ok {
            for problem in pack.problems { text += "\(pack.file): error: \(problem)\n" }
        }
        for extra in report.extraArchives {
            text += "\(AppleManifests.packsFolder)/\(extra): error: archive is not listed in \(BuildManifest.fileName)\n"
        }
        return text
    }

    public static func verdict(_ report: BuildVerifier.Report) -> String {
        let count = report.packs.count
        if report.ok { return "verified \(count) pack\(count == 1 ? "" : "s"): all match \(BuildManifest.fileName)\n" }
        let failed = report.packs.filter { !$0.ok }.count
        let extra = report.extraArchives.isEmpty ? "" : ", \(report.extraArchives.count) unlisted archive(s)"
        return "\(failed) of \(count) packs do not match \(BuildManifest.fileName)\(extra)\n"
    }
}
