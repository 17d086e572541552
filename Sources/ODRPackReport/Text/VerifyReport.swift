import ODRPackBuildFormat
import ODRPackFormats
import ODRPackVerify

/// What `verify` prints: problems on stderr and a one-line verdict, or one JSON document.
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
                            ("status", .string(pack.ok ? "ok" : "mismatch")), ("problems", .strings(pack.problems)),
                        ])
                    })
            ),
            ("extraArchives", .strings(report.extraArchives)),
            (
                "problems",
                .array(
                    report.fileProblems.map { .object([("file", .string($0.file)), ("problem", .string($0.problem))]) })
            ),
            (
                "summary",
                .object([
                    ("packs", .int(Int64(report.packs.count))),
                    ("failed", .int(Int64(report.packs.filter { !$0.ok }.count))),
                ])
            ),
        ])
    }

    /// Every problem as `file: error: message`, like a compiler.
    package static func problems(_ report: BuildVerifier.Report) -> String {
        var text = ""
        for pack in report.packs where !pack.ok {
            for problem in pack.problems { text += "\(pack.file): error: \(problem)\n" }
        }
        for extra in report.extraArchives {
            text +=
                """
                \(extra.hasSuffix(".aar") ? BackgroundAssetsLayout.folder : AppleManifests.packsFolder)/\(extra): \
                error: archive is not listed in \(BuildManifest.fileName)\n
                """
        }
        for problem in report.fileProblems { text += "\(problem.file): error: \(problem.problem)\n" }
        return text
    }

    package static func verdict(_ report: BuildVerifier.Report) -> String {
        let count = report.packs.count
        if report.ok { return "verified \(count) pack\(count == 1 ? "" : "s"): all match \(BuildManifest.fileName)\n" }
        let failed = report.packs.filter { !$0.ok }.count
        var extra = report.extraArchives.isEmpty ? "" : ", \(report.extraArchives.count) unlisted archive(s)"
        if !report.fileProblems.isEmpty { extra += ", \(report.fileProblems.count) problem(s) with other files" }
        return "\(failed) of \(count) packs do not match \(BuildManifest.fileName)\(extra)\n"
    }
}
