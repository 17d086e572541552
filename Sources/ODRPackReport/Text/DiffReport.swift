import ODRPackCore
import ODRPackDiff
import ODRPackFormats

/// The human and JSON forms of `diff`: costly changes first, short when little changed.
package enum DiffReport {
    package static func json(_ diff: BuildDiff) -> JSONValue {
        var summary: [(String, JSONValue)] = [
            ("packsChanged", .int(Int64(diff.packsChanged))), ("packsTotal", .int(Int64(diff.packs.count))),
            ("redownloadInitialInstall", .int(diff.redownloadInitialInstall)),
            ("redownloadPrefetch", .int(diff.redownloadPrefetch)),
            ("redownloadOnDemand", .int(diff.redownloadOnDemand)),
        ]
        if let upload = diff.upload { summary.append(("upload", .strings(upload))) }
        if let retired = diff.retired { summary.append(("retired", .strings(retired))) }
        var members: [(String, JSONValue)] = [
            (
                "packs",
                .array(
                    diff.packs.map { pack in
                        .object([
                            ("id", .string(pack.id)), ("tags", .strings(pack.tags)),
                            ("status", .string(pack.status.rawValue)),
                            ("category", .string(pack.category.rawValue)),
                            ("oldSize", .optional(pack.oldSize)), ("newSize", .optional(pack.newSize)),
                            ("redownloadSize", .int(pack.redownloadSize)),
                            (
                                "files",
                                .object([
                                    ("added", .strings(pack.added)), ("removed", .strings(pack.removed)),
                                    ("modified", .strings(pack.modified)),
                                ])
                            ),
                        ])
                    })
            ),
            (
                "moves",
                .array(
                    diff.moves.map { move in
                        .object([
                            ("path", .string(move.path)), ("fromPack", .string(move.fromPack)),
                            ("toPack", .string(move.toPack)),
                            ("modified", .bool(move.modified)),
                        ])
                    })
            ),
            (
                "tags",
                .array(
                    diff.tags.map { tag in
                        .object([
                            ("name", .string(tag.name)), ("status", .string(tag.status.rawValue)),
                            ("category", .string(tag.category.rawValue)), ("redownloadSize", .int(tag.redownloadSize)),
                        ])
                    })
            ),
            ("summary", .object(summary)),
        ]
        if let upload = diff.upload { members.append(("upload", .strings(upload))) }
        if let retired = diff.retired { members.append(("retired", .strings(retired))) }
        return .object(members)
    }

    /// What retiring a pack means for the hosting (docs/background-assets.md).
    static func retiredMeaning(_ hosting: BackgroundAssetsSettings.Hosting?) -> String {
        hosting == .self
            ? "Self-hosted: once the live download manifest stops listing them, devices delete these packs, also for app versions already installed."
            : "Apple-hosted: these ids still count against the 100-pack quota until archived in App Store Connect; archiving is permanent and reaches every installed app version."
    }

    /// At most this many file names per pack in the human report.
    static let fileLimit = 8

    package static func text(_ diff: BuildDiff, old: String, new: String) -> String {
        var out = "odrpack diff: \(old) -> \(new)\n"
        out += "\(diff.packsChanged) of \(diff.packs.count) pack\(diff.packs.count == 1 ? "" : "s") changed; "
        out += "devices download again: initial-install \(ByteCount.format(diff.redownloadInitialInstall)), "
        out +=
            """
            prefetch \(ByteCount.format(diff.redownloadPrefetch)), on-demand \
            \(ByteCount.format(diff.redownloadOnDemand))\n
            """
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

        let tags = diff.tags.filter { $0.status != .unchanged }
            .sorted { ($0.redownloadSize, $1.name) > ($1.redownloadSize, $0.name) }
        if !tags.isEmpty {
            out += "\nTags, by bytes downloaded again\n"
            var table = TextTable([("TAG", .left), ("STATUS", .left), ("CATEGORY", .left), ("RE-DOWNLOAD", .right)])
            for tag in tags {
                table.add([tag.name, tag.status.rawValue, tag.category.rawValue, ByteCount.format(tag.redownloadSize)])
            }
            out += table.render()
        }

        let packs = diff.packs.filter { $0.status != .unchanged }
            .sorted { ($0.redownloadSize, $1.id) > ($1.redownloadSize, $0.id) }
        out += "\nPacks\n"
        for pack in packs {
            var sizes = ""
            switch pack.status {
            case .added: sizes = ByteCount.format(pack.newSize ?? 0)
            case .removed: sizes = ByteCount.format(pack.oldSize ?? 0)
            default: sizes = "\(ByteCount.format(pack.oldSize ?? 0)) -> \(ByteCount.format(pack.newSize ?? 0))"
            }
            out +=
                "  \(pack.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(pack.shortName) (\(sizes), \(pack.category.rawValue))\n"
            for (label, files) in [("modified", pack.modified), ("added", pack.added), ("removed", pack.removed)]
            where !files.isEmpty {
                let shown = files.prefix(fileLimit).joined(separator: ", ")
                let more = files.count > fileLimit ? " and \(files.count - fileLimit) more" : ""
                out += "             \(label): \(shown)\(more)\n"
            }
        }
        if !diff.moves.isEmpty {
            let names = Dictionary(diff.packs.map { ($0.id, $0.shortName) }, uniquingKeysWith: { first, _ in first })
            out += "\nMoved between packs (tags changed)\n"
            for move in diff.moves.prefix(50) {
                out +=
                    "  \(move.path): \(names[move.fromPack] ?? move.fromPack) -> \(names[move.toPack] ?? move.toPack)\(move.modified ? " (content changed too)" : "")\n"
            }
            if diff.moves.count > 50 { out += "  ... and \(diff.moves.count - 50) more (see --json)\n" }
        }
        return out
    }
}
