import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats

extension ReportModel {
    /// The page of what was built (`odrpack report BUILD_DIR`, docs/commands.md#report-and-ci): the plan's page from
    /// the build manifest, each pack's download (archive) bytes beside its installed bytes, and the gauges on what
    /// devices download and the store hosts: the archives.
    /// - Parameter archives: the build's packs are archives (false for `--layout folder`, whose figures are then the
    ///   resource bytes, as `diff` counts them).
    package init(build: BuildManifest, manifestPath: String, archives: Bool = true) {
        title = "odrpack report: \(build.bundleId)"
        func download(_ pack: BuildManifest.Pack) -> Int64 { archives ? pack.archiveSize ?? pack.size : pack.size }
        let packs = build.packs.sorted { (download($0), $1.id) > (download($1), $0.id) }
        let byID = Dictionary(build.packs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let fileCount = build.packs.reduce(0) { $0 + $1.files.count }
        treemap = TreemapNode(
            name: build.bundleId, size: build.packs.lazy.map(\.size).saturatingSum, group: "all",
            children: packs.map { pack in
                TreemapNode.pack(
                    name: pack.tags.joined(separator: "+"), group: pack.category.rawValue,
                    files: pack.files.map { ($0.path, $0.size) }, keep: Self.tilesPerFolder(files: fileCount))
            })
        func sum(_ categories: Set<DownloadCategory>) -> Int64 {
            build.packs.lazy.filter { categories.contains($0.category) }.map(download).saturatingSum
        }
        func tagDownload(_ tag: BuildManifest.Tag) -> Int64 {
            tag.packs.lazy.compactMap { byID[$0] }.map(download).saturatingSum
        }
        let limits = Dictionary(build.limits.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        let rows = LimitUsage.rows(
            initialInstall: sum([.initialInstall]), initialPrefetch: sum([.initialInstall, .prefetch]),
            total: sum([.initialInstall, .prefetch, .onDemand]), packCount: build.packs.count,
            largestPack: build.packs.map(download).max() ?? 0, largestTag: build.tags.map(tagDownload).max() ?? 0,
            limit: { limits[$0] ?? nil })
        var largest: [(path: String, size: Int64, pack: BuildManifest.Pack)] = []
        for pack in build.packs {
            for index in pack.files.indices {
                largest.append((pack.files.path(at: index), pack.files.size(at: index), pack))
            }
        }
        largest.sort { $0.size != $1.size ? $0.size > $1.size : $0.path < $1.path }
        let hasAssetPackIDs = build.format.kind.hasAssetPackIDs
        document = .object([
            ("kind", .string("build")),
            ("format", .string(build.format.rawValue)),
            ("title", .string(title)),
            ("manifest", .string(manifestPath)),
            ("bundleId", .string(build.bundleId)),
            ("profile", .string(build.profile)),
            (
                "totals",
                .object([
                    ("packs", .int(Int64(build.packs.count))), ("files", .int(Int64(fileCount))),
                    ("size", .int(build.packs.lazy.map(\.size).saturatingSum)),
                    ("downloadSize", .int(sum([.initialInstall, .prefetch, .onDemand]))),
                    ("appBundleFiles", build.countsAppBundle ? .int(build.appBundleFiles) : .null),
                    ("appBundleSize", build.countsAppBundle ? .int(build.appBundleSize) : .null),
                    ("initialInstallSize", .int(sum([.initialInstall]))),
                    ("initialPrefetchSize", .int(sum([.initialInstall, .prefetch]))),
                ])
            ),
            (
                "limits",
                .array(
                    rows.map { row in
                        .object([
                            ("name", .string(row.isCount ? row.name : "\(row.name) (download bytes)")),
                            ("key", .string(row.key.rawValue)), ("value", .int(row.value)),
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
                            ("id", .string(pack.id)), ("name", .string(pack.tags.joined(separator: "+"))),
                            ("tags", .strings(pack.tags)), ("category", .string(pack.category.rawValue)),
                            ("priority", .optional(pack.priority)), ("files", .int(Int64(pack.files.count))),
                            ("size", .int(pack.size)), ("downloadSize", .int(download(pack))),
                        ]
                        if hasAssetPackIDs {
                            fields += [
                                ("assetPackId", .string(pack.assetPackId ?? pack.id)),
                                ("policy", .string(pack.downloadPolicy?.name ?? "")),
                            ]
                        }
                        return .object(fields)
                    })
            ),
            (
                "tags",
                .array(
                    build.tags.map { tag in
                        .object([
                            ("name", .string(tag.name)), ("category", .string(tag.category.rawValue)),
                            ("size", .int(tag.size)), ("downloadSize", .int(tagDownload(tag))),
                            ("packs", .strings(tag.packs)),
                        ])
                    })
            ),
            (
                "largestFiles",
                .array(
                    largest.prefix(Self.largestFiles).map { file in
                        .object([
                            ("path", .string(file.path)), ("size", .int(file.size)), ("pack", .string(file.pack.id)),
                            ("tags", .strings(file.pack.tags)),
                        ])
                    })
            ),
            ("diagnostics", .array([])),
            ("tagSets", .array([])),
            ("treemap", treemap.json),
        ])
    }
}
