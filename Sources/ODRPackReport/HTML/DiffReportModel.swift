import ODRPackBuildFormat
import ODRPackCore
import ODRPackDiff
import ODRPackFormats
import ODRPackPlatform

/// What the HTML page of a diff is built from: packs coloured by status, re-download bytes per tag and category.
package struct DiffReportModel: Sendable {
    package let document: JSONValue
    /// The diff whose file lists and moves `document` holds as marks, for the page written as it is made; nil when
    /// `document` holds them.
    private let lists: BuildDiff?

    /// - Parameter fileLists: false leaves the packs' file lists and the moves out of `document` (a mark stands for
    ///   each), for `htmlDocument`, which writes them a path at a time (docs/build-output.md#bounded).
    package init(
        diff: BuildDiff, old: BuildManifest, new: BuildManifest, oldName: String, newName: String,
        fileLists: Bool = true
    ) {
        lists = fileLists ? nil : diff
        let files = Dictionary(
            (new.packs + old.packs).map { ($0.id, $0.files) }, uniquingKeysWith: { first, _ in first })
        let packs = diff.packs.sorted {
            (max($0.newSize ?? 0, $0.oldSize ?? 0), $1.id) > (max($1.newSize ?? 0, $1.oldSize ?? 0), $0.id)
        }
        let treemap = TreemapNode(
            name: new.bundleId, size: packs.lazy.map { max($0.newSize ?? 0, $0.oldSize ?? 0) }.saturatingSum,
            group: "all",
            children: packs.map { pack in
                TreemapNode.pack(
                    name: pack.shortName, group: pack.status.rawValue,
                    files: (files[pack.id] ?? []).map { ($0.path, $0.size) },
                    keep: ReportModel.tilesPerFolder(files: files.values.reduce(0) { $0 + $1.count }))
            })
        let diffDocument = DiffReport.json(fileLists ? diff : diff.withoutFileLists)
        guard case .object(var fields) = diffDocument else {
            document = diffDocument
            return
        }
        // What the page shows of each pack beside the data: its category as `old → new`, its size difference and its
        // files counted with the moves (docs/commands.md#report-and-ci).
        if let index = fields.firstIndex(where: { $0.0 == "packs" }), case .array(let items) = fields[index].1 {
            fields[index].1 = .array(
                zip(items, diff.packs).map { item, pack in
                    guard case .object(var members) = item else { return item }
                    if !fileLists, let files = members.firstIndex(where: { $0.0 == "files" }) {
                        members[files].1 = .written([Self.filesMark])
                    }
                    members += [
                        ("categoryText", .string(DiffReport.category(pack))),
                        (
                            "sizeChange",
                            .optional(
                                pack.oldSize.flatMap { old in pack.newSize.map { DiffReport.signed($0, minus: old) } })
                        ),
                        ("filesText", .string(pack.downloadReason ?? DiffReport.filesCell(pack))),
                        (
                            "fileChanges",
                            .int(
                                Int64(
                                    pack.added.count + pack.removed.count + pack.modified.count + pack.movedIn.count
                                        + pack.movedOut.count))
                        ),
                    ]
                    return .object(members)
                })
        }
        fields.insert(
            contentsOf: [
                ("kind", .string("diff")), ("title", .string("odrpack diff: \(oldName) → \(newName)")),
                ("bundleId", .string(new.bundleId)), ("old", .string(oldName)), ("new", .string(newName)),
            ], at: 0)
        // Each category's bar is what devices download again of that category's bytes in the new build, not a share of
        // the largest figure: 1 KB again of 1 GB is a sliver, whatever the other categories do.
        let categoryTotals = [DownloadCategory.initialInstall, .prefetch, .onDemand].map { category in
            (
                category.rawValue,
                JSONValue.int(new.packs.lazy.filter { $0.category == category }.map(\.size).saturatingSum)
            )
        }
        if !fileLists, let moves = fields.firstIndex(where: { $0.0 == "moves" }) {
            fields[moves].1 = .written([Self.movesMark])
        }
        // The same in what devices download: each category's archive bytes (resource bytes without archives).
        let categoryDownloadTotals = [DownloadCategory.initialInstall, .prefetch, .onDemand].map { category in
            (
                category.rawValue,
                JSONValue.int(
                    new.packs.lazy.filter { $0.category == category }
                        .map { diff.downloadsArchives ? $0.archiveSize ?? $0.size : $0.size }.saturatingSum)
            )
        }
        fields.append(("categoryTotals", .object(categoryTotals)))
        fields.append(("categoryDownloadTotals", .object(categoryDownloadTotals)))
        fields.append(("headline", Self.headline(diff)))
        fields.append(("prefetchOrderNote", .optional(DiffReport.prefetchOrderNote(diff))))
        fields.append(("treemap", treemap.json))
        document = .object(fields)
    }

    /// The page's cards, as the text's summary line leads: per category the bytes devices download again, the
    /// installed bytes second and labelled so (docs/commands.md#diff).
    static func headline(_ diff: BuildDiff) -> JSONValue {
        .array(
            [
                ("initial-install", diff.redownloadDownloadInitialInstall, diff.redownloadInitialInstall),
                ("prefetch", diff.redownloadDownloadPrefetch, diff.redownloadPrefetch),
                ("on-demand", diff.redownloadDownloadOnDemand, diff.redownloadOnDemand),
            ].map { category, download, installed in
                .object([
                    ("category", .string(category)), ("download", .int(download)), ("installed", .int(installed)),
                    ("value", .string(ByteCount.format(download))),
                    ("label", .string("\(category) downloaded again (\(ByteCount.format(installed)) installed)")),
                ])
            })
    }

    /// What stands for a pack's file lists and for the moves in `document` (never in UTF-8 JSON text).
    private static let filesMark: UInt8 = 0xFF
    private static let movesMark: UInt8 = 0xFE

    /// `html`'s bytes written as they are made, each pack's file lists and the moves a path at a time: for a model
    /// made with `fileLists: false` (with them, the page is `html`'s).
    package var htmlDocument: StreamedDocument {
        guard let diff = lists else {
            let page = html
            return StreamedDocument { sink in try sink.append(Array(page.utf8)) }
        }
        var title = "odrpack diff"
        if case .object(let fields) = document, case .string(let text)? = fields.first(where: { $0.0 == "title" })?.1 {
            title = text
        }
        let bytes = document.serializedBytes()
        return ReportPage.document(title: title) { sink in
            var start = 0
            var pack = 0
            for (offset, byte) in bytes.enumerated() where byte == Self.filesMark || byte == Self.movesMark {
                sink.buffer.append(contentsOf: bytes[start..<offset])
                if byte == Self.movesMark {
                    try DiffReport.writeMoves(diff.moves, to: &sink)
                } else {
                    try DiffReport.writeFileLists(of: diff.packs[pack], indent: 3, to: &sink)
                    pack += 1
                }
                try sink.flushIfFull()
                start = offset + 1
            }
            sink.buffer.append(contentsOf: bytes[start...])
        }
    }

    package var html: String {
        guard case .object(let fields) = document,
            case .string(let title)? = fields.first(where: { $0.0 == "title" })?.1
        else {
            return ReportPage.html(title: "odrpack diff", data: document)
        }
        return ReportPage.html(title: title, data: document)
    }
}
