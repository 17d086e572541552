import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats

/// What the HTML report of a plan is built from (docs/commands.md#report-and-ci): metadata only, like `plan`.
package struct ReportModel: Sendable {
    package let title: String
    package let treemap: TreemapNode
    package let document: JSONValue

    /// Files per folder that get a tile of their own; the rest of the folder shares one. Fewer in a big project,
    /// so the page holds about the same number of tiles whatever the number of files.
    static let filesPerFolder = 40

    static func tilesPerFolder(files: Int) -> Int { max(4, min(filesPerFolder, 400_000 / max(1, files))) }
    /// Rows of the largest-files table.
    static let largestFiles = 200

    package init(plan: PackPlan, diagnostics: [Diagnostic], manifestPath: String) {
        title = "odrpack report: \(plan.bundleID)"
        let packs = plan.packs.sorted { ($0.size, $1.id) > ($1.size, $0.id) }
        let keep = Self.tilesPerFolder(files: plan.resourceFiles)
        treemap = TreemapNode(
            name: plan.bundleID, size: plan.totalSize, group: "all",
            children: packs.map { pack in
                TreemapNode.pack(
                    name: pack.shortName, group: pack.category.rawValue,
                    files: pack.files.map { ($0.path, $0.size) }, keep: keep)
            })
        let largest = Self.largest(plan, count: Self.largestFiles)
        let tooMany = diagnostics.contains { $0.code == .tooManyPacks }
        document = .object([
            ("kind", .string("plan")),
            ("format", .string(plan.format.rawValue)),
            ("title", .string(title)),
            ("manifest", .string(manifestPath)),
            ("bundleId", .string(plan.bundleID)),
            ("profile", .string(plan.profileName)),
            (
                "totals",
                .object([
                    ("packs", .int(Int64(plan.packs.count))), ("files", .int(Int64(plan.resourceFiles))),
                    ("size", .int(plan.totalSize)),
                    ("appBundleFiles", plan.countsAppBundle ? .int(Int64(plan.appBundleFiles)) : .null),
                    ("appBundleSize", plan.countsAppBundle ? .int(plan.appBundleSize) : .null),
                    ("initialInstallSize", .int(plan.initialInstallSize)),
                    ("initialPrefetchSize", .int(plan.initialPrefetchSize)),
                ])
            ),
            (
                "limits",
                .array(
                    LimitUsage.rows(plan).map { row in
                        // The gauge shows its name: a note of why it has no warning in the problems list goes there,
                        // and every other page stays byte for byte what it was.
                        let name =
                            Self.gaugeNote(row, diagnostics: diagnostics).map { "\(row.name) (\($0))" } ?? row.name
                        return .object([
                            ("name", .string(name)), ("key", .string(row.key.rawValue)), ("value", .int(row.value)),
                            ("limit", .optional(row.limit)), ("count", .bool(row.isCount)),
                            ("level", .string(Self.gaugeLevel(row))),
                        ])
                    })
            ),
            (
                "packs",
                .array(
                    packs.map { pack in
                        var fields: [(String, JSONValue)] = [
                            ("id", .string(pack.id)), ("name", .string(pack.shortName)), ("tags", .strings(pack.tags)),
                            ("category", .string(pack.category.rawValue)), ("priority", .optional(pack.priority)),
                            ("files", .int(Int64(pack.files.count))), ("size", .int(pack.size)),
                        ]
                        if plan.format.kind.hasAssetPackIDs {
                            fields += [
                                ("assetPackId", .string(pack.assetPackID)),
                                ("policy", .string(plan.downloadPolicy(of: pack).name)),
                            ]
                        }
                        return .object(fields)
                    })
            ),
            (
                "tags",
                .array(
                    plan.tags.map { tag in
                        .object([
                            ("name", .string(tag.name)), ("category", .string(tag.category.rawValue)),
                            ("size", .int(tag.size)),
                            ("packs", .strings(tag.packs)),
                        ])
                    })
            ),
            (
                "largestFiles",
                .array(
                    largest.map { file in
                        .object([
                            ("path", .string(file.path)), ("size", .int(file.size)), ("pack", .string(file.pack.id)),
                            ("tags", .strings(file.pack.tags)),
                        ])
                    })
            ),
            ("diagnostics", DiagnosticsDocument.json(diagnostics)),
            ("tagSets", tooMany ? Self.tagSets(plan) : .array([])),
            ("treemap", treemap.json),
        ])
    }

    /// The `count` largest files, biggest first (then by path): a bounded selection, not a sort of every file.
    /// A gauge's colour (docs/report.md): `over` (red) only past a limit whose breach is an error; `warn` (amber) from
    /// 80% of a limit, and past `recommended-size`, whose breach is a warning; `ok` below, or without a limit.
    static func gaugeLevel(_ row: LimitUsage) -> String {
        guard let limit = row.limit else { return "ok" }
        let past = row.value > limit
        if past { return row.key == .recommendedSize ? "warn" : "over" }
        return limit > 0 && Double(row.value) > 0.8 * Double(limit) ? "warn" : "ok"
    }

    /// Why an amber recommended-size gauge has no warning of its own in the problems list: a pack or tag over the hard
    /// limit is reported as the error (`pack-too-large`, `tag-too-large`) instead of `over-recommended-size`, so the
    /// gauge says where to look. Nil for every other gauge.
    static func gaugeNote(_ row: LimitUsage, diagnostics: [Diagnostic]) -> String? {
        guard row.key == .recommendedSize, gaugeLevel(row) == "warn", let limit = row.limit, row.value > limit,
            !diagnostics.contains(where: { $0.code == .overRecommendedSize })
        else { return nil }
        let errors = [DiagnosticCode.packTooLarge, .tagTooLarge].filter { code in
            diagnostics.contains { $0.code == code }
        }
        guard !errors.isEmpty else { return nil }
        return """
            past the recommended size: no over-recommended-size warning is listed because the largest \
            \(errors == [.tagTooLarge] ? "tag" : "pack") is over the hard limit, reported as \
            \(errors.map(\.rawValue).joined(separator: " and "))
            """
    }

    static func largest(_ plan: PackPlan, count: Int) -> [(path: String, size: Int64, pack: AssetPack)] {
        typealias Candidate = (path: String, size: Int64, pack: AssetPack)
        func before(_ a: Candidate, _ b: Candidate) -> Bool { a.size != b.size ? a.size > b.size : a.path < b.path }
        var kept: [Candidate] = []
        kept.reserveCapacity(count + 1)
        for pack in plan.packs {
            for file in pack.files {
                // Most files are smaller than the smallest kept one once the list is full: one comparison each.
                if kept.count == count, let last = kept.last, file.size < last.size { continue }
                let candidate = (file.path, file.size, pack)
                if kept.count == count, let last = kept.last, !before(candidate, last) { continue }
                var low = 0
                var high = kept.count
                while low < high {
                    let middle = (low + high) / 2
                    if before(kept[middle], candidate) { low = middle + 1 } else { high = middle }
                }
                kept.insert(candidate, at: low)
                if kept.count > count { kept.removeLast() }
            }
        }
        return kept
    }

    /// For `too-many-packs`: the tag sets that make packs, those with the most tags first, and files that make each.
    static func tagSets(_ plan: PackPlan) -> JSONValue {
        let packs = plan.packs.sorted {
            ($0.tags.count, $0.files.count, $1.id) > ($1.tags.count, $1.files.count, $0.id)
        }
        return .array(
            packs.prefix(100).map { pack in
                .object([
                    ("pack", .string(pack.id)), ("tags", .strings(pack.tags)),
                    ("fileCount", .int(Int64(pack.files.count))),
                    ("files", .strings(pack.files.prefix(5).map(\.path))),
                ])
            })
    }

    /// The page.
    package var html: String { ReportPage.html(title: title, data: document) }
}
