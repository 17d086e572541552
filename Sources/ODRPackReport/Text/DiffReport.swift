import ODRPackCore
import ODRPackDiff
import ODRPackFormats
import ODRPackPlatform

/// The human and JSON forms of `diff`: costly changes first, short when little changed.
package enum DiffReport {
    package static func json(_ diff: BuildDiff) -> JSONValue {
        var summary: [(String, JSONValue)] = [
            ("packsChanged", .int(Int64(diff.packsChanged))), ("packsTotal", .int(Int64(diff.packs.count))),
            ("redownloadInitialInstall", .int(diff.redownloadInitialInstall)),
            ("redownloadPrefetch", .int(diff.redownloadPrefetch)),
            ("redownloadOnDemand", .int(diff.redownloadOnDemand)),
            ("redownloadDownloadInitialInstall", .int(diff.redownloadDownloadInitialInstall)),
            ("redownloadDownloadPrefetch", .int(diff.redownloadDownloadPrefetch)),
            ("redownloadDownloadOnDemand", .int(diff.redownloadDownloadOnDemand)),
        ]
        if let upload = diff.upload { summary.append(("upload", .strings(upload))) }
        if let retired = diff.retired { summary.append(("retired", .strings(retired))) }
        var members: [(String, JSONValue)] = [
            (
                "packs",
                .array(
                    diff.packs.map { pack in
                        var fields: [(String, JSONValue)] = [
                            ("id", .string(pack.id)), ("tags", .strings(pack.tags)),
                            ("status", .string(pack.status.rawValue)),
                        ]
                        // A category or priority that changed is given on both sides (docs/commands.md#diff).
                        if pack.categoryChanged {
                            fields.append(
                                (
                                    "category",
                                    .object([
                                        ("old", .optional(pack.oldCategory?.rawValue)),
                                        ("new", .optional(pack.newCategory?.rawValue)),
                                    ])
                                ))
                        } else {
                            fields.append(("category", .string(pack.category.rawValue)))
                        }
                        if pack.priorityChanged {
                            fields.append(
                                (
                                    "priority",
                                    .object([
                                        ("old", .optional(pack.oldPriority)), ("new", .optional(pack.newPriority)),
                                    ])
                                )
                            )
                        }
                        fields += [
                            ("oldSize", .optional(pack.oldSize)), ("newSize", .optional(pack.newSize)),
                            ("redownloadSize", .int(pack.redownloadSize)),
                            // What a device downloads for it, and why when no file changed (docs/commands.md#diff);
                            // `files` stays last, where the streamed document writes its lists.
                            ("redownloadDownloadSize", .int(pack.redownloadDownloadSize)),
                            ("downloadReason", .optional(pack.downloadReason)),
                            (
                                "files",
                                .object([
                                    ("added", .strings(Array(pack.added))),
                                    ("removed", .strings(Array(pack.removed))),
                                    ("modified", .strings(Array(pack.modified))),
                                ])
                            ),
                        ]
                        return .object(fields)
                    })
            ),
            (
                "moves",
                .array(
                    diff.moves.map(moveJSON))
            ),
            (
                "tags",
                .array(
                    diff.tags.map { tag in
                        .object([
                            ("name", .string(tag.name)), ("status", .string(tag.status.rawValue)),
                            ("category", .string(tag.category.rawValue)), ("redownloadSize", .int(tag.redownloadSize)),
                            ("redownloadDownloadSize", .int(tag.redownloadDownloadSize)),
                        ])
                    })
            ),
            ("summary", .object(summary)),
        ]
        if let upload = diff.upload { members.append(("upload", .strings(upload))) }
        if let retired = diff.retired { members.append(("retired", .strings(retired))) }
        return .object(members)
    }

    /// The `diff --json` document written as it is made (docs/build-output.md#bounded): `json(_:)`'s bytes in its
    /// envelope, each pack's file lists and the moves written a path at a time, so a diff of a million changed files
    /// makes no `JSONValue` (nor String) a file, nor the document's text.
    package static func writeJSON(_ diff: BuildDiff, to stream: inout JSONObjectStream) throws {
        guard case .object(let members) = json(diff.withoutFileLists) else { return }
        try stream.member("schemaVersion", .int(JSONEnvelope.schemaVersion))
        for (key, value) in members {
            switch key {
            case "packs":
                try stream.member(key) { sink in
                    guard case .array(let items) = value, items.count == diff.packs.count else { return }
                    try writeArray(Array(diff.packs.indices), to: &sink) { index, sink in
                        let pack = diff.packs[index]
                        guard case .object(var fields) = items[index] else { return }
                        // The file lists stand as a mark no JSON text holds (0xFF is never in UTF-8).
                        fields[fields.count - 1].1 = .written([0xFF])
                        let bytes = JSONValue.object(fields).bytes(indent: 2)
                        let mark = bytes.firstIndex(of: 0xFF)!
                        sink.buffer.append(contentsOf: bytes[..<mark])
                        try writeFileLists(of: pack, indent: 3, to: &sink)
                        sink.buffer.append(contentsOf: bytes[(mark + 1)...])
                    }
                }
            case "moves":
                try stream.member(key) { try writeMoves(diff.moves, to: &$0) }
            default:
                try stream.member(key, value)
            }
        }
        try stream.member("diagnostics", .array([]))
    }

    /// A pack's `files` object (`added`, `removed`, `modified`) as `JSONValue` writes it at nesting level `indent`, a
    /// path at a time.
    static func writeFileLists(of pack: BuildDiff.PackChange, indent: Int, to sink: inout DocumentSink) throws {
        // The lists stand as marks no JSON text holds (0xFD to 0xFF are never in UTF-8).
        let lists: [UInt8: DiffPaths] = [0xFF: pack.added, 0xFE: pack.removed, 0xFD: pack.modified]
        let bytes = JSONValue.object([
            ("added", .written([0xFF])), ("removed", .written([0xFE])), ("modified", .written([0xFD])),
        ]).bytes(indent: indent)
        var start = 0
        for (offset, byte) in bytes.enumerated() where byte >= 0xFD {
            sink.buffer.append(contentsOf: bytes[start..<offset])
            try writeStrings(lists[byte]!, to: &sink)
            start = offset + 1
        }
        sink.buffer.append(contentsOf: bytes[start...])
    }

    /// The `moves` array at nesting level 1, a move at a time.
    static func writeMoves(_ moves: [BuildDiff.Move], to sink: inout DocumentSink) throws {
        try writeArray(moves, to: &sink) { move, sink in
            sink.buffer.append(contentsOf: moveJSON(move).bytes(indent: 2, capacity: 0))
        }
    }

    /// An array of objects at nesting level 1, as `JSONValue` writes it, an element at a time.
    private static func writeArray<Element>(
        _ elements: [Element], to sink: inout DocumentSink, _ write: (Element, inout DocumentSink) throws -> Void
    ) throws {
        guard !elements.isEmpty else { return sink.buffer.append(contentsOf: Array("[]".utf8)) }
        sink.buffer.append(contentsOf: Array("[\n".utf8))
        for (index, element) in elements.enumerated() {
            sink.buffer.append(contentsOf: Array("    ".utf8))
            try write(element, &sink)
            sink.buffer.append(contentsOf: Array((index == elements.count - 1 ? "\n" : ",\n").utf8))
            try sink.flushIfFull()
        }
        sink.buffer.append(contentsOf: Array("  ]".utf8))
    }

    /// `JSONValue.strings(paths)`'s one line, a path at a time.
    private static func writeStrings(_ paths: DiffPaths, to sink: inout DocumentSink) throws {
        sink.buffer.append(UInt8(ascii: "["))
        for (index, path) in paths.enumerated() {
            if index > 0 { sink.buffer.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")]) }
            JSONValue.writeString(path, to: &sink.buffer)
            try sink.flushIfFull()
        }
        sink.buffer.append(UInt8(ascii: "]"))
    }

    private static func moveJSON(_ move: BuildDiff.Move) -> JSONValue {
        .object([
            ("path", .string(move.path)), ("fromPack", .string(move.fromPack)), ("toPack", .string(move.toPack)),
            ("modified", .bool(move.modified)),
        ])
    }

    /// What retiring a pack means for the hosting (docs/background-assets.md).
    static func retiredMeaning(_ hosting: BackgroundAssetsSettings.Hosting?) -> String {
        hosting == .self
            ? "Self-hosted: once the live download manifest stops listing them, devices delete these packs, also for app versions already installed."
            : "Apple-hosted: these ids still count against the 100-pack quota until archived in App Store Connect; archiving is permanent and reaches every installed app version."
    }

    /// A pack's sizes with their difference: `6.5 MB → 6.5 MB, +2 B`; one size for an added or removed pack.
    package static func sizes(_ pack: BuildDiff.PackChange) -> String {
        switch (pack.oldSize, pack.newSize) {
        case (let old?, let new?):
            return "\(ByteCount.format(old)) → \(ByteCount.format(new)), \(signed(new, minus: old))"
        case (let old?, nil): return ByteCount.format(old)
        case (nil, let new?): return ByteCount.format(new)
        case (nil, nil): return "-"
        }
    }

    /// `+2 B`, `-1.5 MB`, `+0 B`: the difference new - old, exact in bytes below 1 KB.
    package static func signed(_ new: Int64, minus old: Int64) -> String {
        let (difference, overflow) = new.subtractingReportingOverflow(old)
        guard !overflow else {
            return new > old ? "+" + ByteCount.format(Int64.max) : "-" + ByteCount.format(Int64.max)
        }
        if difference < 0 { return "-" + ByteCount.format(difference == Int64.min ? Int64.max : -difference) }
        return "+" + ByteCount.format(difference)
    }

    /// The pack's category, `on-demand → initial-install` when it changed.
    package static func category(_ pack: BuildDiff.PackChange) -> String {
        guard pack.categoryChanged, let old = pack.oldCategory, let new = pack.newCategory else {
            return pack.category.rawValue
        }
        return "\(old.rawValue) → \(new.rawValue)"
    }

    /// `, priority 0.5 → 1` when the priority changed, else nothing.
    static func priority(_ pack: BuildDiff.PackChange) -> String {
        guard pack.priorityChanged else { return "" }
        return ", priority \(priorityText(pack.oldPriority)) → \(priorityText(pack.newPriority))"
    }

    static func priorityText(_ value: Double?) -> String { BuildDiff.PackChange.priorityText(value) }

    /// The files of a changed pack as counts, only those that are not zero: `+1 −2 ~3, 2 moved in, 1 moved out`;
    /// `-` when no file changed (the archive, category or priority did).
    package static func filesCell(_ pack: BuildDiff.PackChange) -> String {
        var parts: [String] = []
        if !pack.added.isEmpty { parts.append("+\(pack.added.count)") }
        if !pack.removed.isEmpty { parts.append("−\(pack.removed.count)") }
        if !pack.modified.isEmpty { parts.append("~\(pack.modified.count)") }
        var text = parts.joined(separator: " ")
        for (count, label) in [(pack.movedIn.count, "moved in"), (pack.movedOut.count, "moved out")] where count > 0 {
            text += (text.isEmpty ? "" : ", ") + "\(count) \(label)"
        }
        return text.isEmpty ? "-" : text
    }

    /// `initial-install 1.2 MB (1.5 MB installed), prefetch …, on-demand …`: what crosses the network first, then what
    /// it unpacks to, per category.
    package static func downloadFigures(_ diff: BuildDiff) -> String {
        [
            ("initial-install", diff.redownloadDownloadInitialInstall, diff.redownloadInitialInstall),
            ("prefetch", diff.redownloadDownloadPrefetch, diff.redownloadPrefetch),
            ("on-demand", diff.redownloadDownloadOnDemand, diff.redownloadOnDemand),
        ].map { "\($0.0) \(ByteCount.format($0.1)) (\(ByteCount.format($0.2)) installed)" }.joined(separator: ", ")
    }

    /// Said once when a tag was added to, removed from or moved in `prefetch-order` and priorities moved with it: the
    /// one change whose cost users do not expect (docs/commands.md#diff). Nil otherwise.
    package static func prefetchOrderNote(_ diff: BuildDiff) -> String? {
        guard let moved = diff.prefetchOrderMoves, moved > 0 else { return nil }
        return moved == 1
            ? "prefetch-order changed: the priority of 1 pack moved, and devices download it again"
            : "prefetch-order changed: the priorities of \(moved) packs moved, and devices download them again"
    }

    /// The tags that changed, the most bytes downloaded again first: the table the text and the Markdown lead with.
    package static func changedTags(_ diff: BuildDiff) -> [BuildDiff.TagChange] {
        diff.tags.filter { $0.status != .unchanged }
            .sorted {
                ($0.redownloadDownloadSize, $0.redownloadSize, $1.name) > (
                    $1.redownloadDownloadSize, $1.redownloadSize, $0.name
                )
            }
    }

    /// At most this many file names per pack in the human report.
    static let fileLimit = 8

    package static func text(_ diff: BuildDiff, old: String, new: String) -> String {
        var out = "odrpack diff: \(old) → \(new)\n"
        out += "\(diff.packsChanged) of \(diff.packs.count) pack\(diff.packs.count == 1 ? "" : "s") changed; "
        out += "devices download again: \(downloadFigures(diff))\n"
        if !diff.downloadsArchives {
            out += "Folder layout: no archives, so the download figures are the resource bytes\n"
        }
        if let note = prefetchOrderNote(diff) { out += note + "\n" }
        if let upload = diff.upload {
            out +=
                upload.isEmpty
                ? "Upload: nothing (every asset pack is unchanged)\n"
                : "Upload \(upload.count) asset pack\(upload.count == 1 ? "" : "s") (new versions): \(upload.joined(separator: ", "))\n"
        }
        if let retired = diff.retired, !retired.isEmpty {
            out +=
                """
                Retired \(retired.count) asset pack\(retired.count == 1 ? "" : "s") (in OLD, not in NEW): \
                \(retired.joined(separator: ", "))\n
                """
            out += "  " + retiredMeaning(diff.hosting) + "\n"
        }
        guard diff.hasChanges else { return out + "No pack, tag or file changed.\n" }

        let tags = changedTags(diff)
        if !tags.isEmpty {
            out += "\nTags, by bytes downloaded again\n"
            var table = TextTable([
                ("TAG", .left), ("STATUS", .left), ("CATEGORY", .left), ("DOWNLOAD", .right), ("INSTALLED", .right),
            ])
            for tag in tags {
                table.add([
                    tag.name, tag.status.rawValue, tag.category.rawValue, ByteCount.format(tag.redownloadDownloadSize),
                    ByteCount.format(tag.redownloadSize),
                ])
            }
            out += table.render()
        }

        let packs = diff.packs.filter { $0.status != .unchanged }
            .sorted {
                ($0.redownloadDownloadSize, $0.redownloadSize, $1.id) > (
                    $1.redownloadDownloadSize, $1.redownloadSize, $0.id
                )
            }
        out += "\nPacks\n"
        for pack in packs {
            out +=
                "  \(pack.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(TerminalText.escaped(pack.shortName)) (\(sizes(pack)), \(category(pack))\(priority(pack)))\n"
            // The first paths of each list and its length: a list of a million paths is not copied to be shown.
            for (label, first, count) in [
                ("modified", Array(pack.modified.prefix(fileLimit)), pack.modified.count),
                ("added", Array(pack.added.prefix(fileLimit)), pack.added.count),
                ("removed", Array(pack.removed.prefix(fileLimit)), pack.removed.count),
                ("moved in", Array(pack.movedIn.prefix(fileLimit)), pack.movedIn.count),
                ("moved out", Array(pack.movedOut.prefix(fileLimit)), pack.movedOut.count),
            ]
            where count > 0 {
                let shown = first.map { TerminalText.escaped($0) }.joined(separator: ", ")
                let more = count > fileLimit ? " and \(count - fileLimit) more" : ""
                out += "             \(label): \(shown)\(more)\n"
            }
            if let reason = pack.downloadReason { out += "             downloaded again: \(reason)\n" }
        }
        if !diff.moves.isEmpty {
            let names = Dictionary(diff.packs.map { ($0.id, $0.shortName) }, uniquingKeysWith: { first, _ in first })
            out += "\nMoved between packs (tags changed)\n"
            for move in diff.moves.prefix(50) {
                out +=
                    "  \(TerminalText.escaped(move.path)): \(TerminalText.escaped(names[move.fromPack] ?? move.fromPack)) → \(TerminalText.escaped(names[move.toPack] ?? move.toPack))\(move.modified ? " (content changed too)" : "")\n"
            }
            if diff.moves.count > 50 { out += "  ... and \(diff.moves.count - 50) more (see --json)\n" }
        }
        return out
    }
}
