import ODRPackFormats
extension BuildManifest {
    /// The document's members in SPEC 7's order; a plan's leaves out every field that needs contents or archives.
    package var jsonMembers: [(String, JSONValue)] { members(packs: .array(packs.map(json))) }

    /// The file's bytes: pretty-printed, deterministic; `JSONValue.object(jsonMembers).serialized()`, made faster.
    package func serialized() -> String { String(decoding: serializedBytes(), as: UTF8.self) }

    package func serializedBytes() -> [UInt8] { serialized(packs: serializedPacks(packs.indices)) }

    /// The file's bytes, given every pack's part in pack order as `serializedPacks` makes them (on other cores).
    package func serialized(packs parts: [[UInt8]]) -> [UInt8] {
        JSONValue.object(members(packs: .array(parts.map(JSONValue.written)))).serializedBytes()
    }

    /// The parts of packs `range` as they appear in the file. Each pack's file list, most of the file, is written
    /// directly rather than through a `JSONValue` per file: the same bytes (a test compares them) at 3x the speed.
    package func serializedPacks(_ range: Range<Int>) -> [[UInt8]] {
        packs[range].map { json($0, files: .written(filesJSON($0.files))).bytes(indent: 2) }
    }

    private func members(packs: JSONValue) -> [(String, JSONValue)] {
        var totalFields: [(String, JSONValue)] = [("packs", .int(totals.packs)), ("size", .int(totals.size))]
        if let archiveSize = totals.archiveSize { totalFields.append(("archiveSize", .int(archiveSize))) }
        totalFields += [("initialInstallSize", .int(totals.initialInstallSize)),
                        ("initialPrefetchSize", .int(totals.initialPrefetchSize))]
        var members: [(String, JSONValue)] = [("schemaVersion", .int(Int64(schemaVersion))), ("format", .string(format.rawValue))]
        if let settings = backgroundAssets {
            members.append(("backgroundAssets", .object([
                ("hosting", .string(settings.hosting.rawValue)), ("platforms", .strings(settings.platforms)),
                ("events", .strings(settings.events)), ("appGroup", .optional(settings.appGroup)),
                ("urlPrefix", .optional(settings.urlPrefix)),
            ])))
        }
        return members + [
            ("bundleId", .string(bundleId)),
            ("profile", .string(profile)),
            ("limits", .object(limits.map { ($0.key.rawValue, .optional($0.value)) })),
            ("initialInstallTags", .strings(initialInstallTags)),
            ("prefetchOrder", .strings(prefetchOrder)),
            ("appBundle", .object([("files", .int(appBundleFiles)), ("size", .int(appBundleSize))])),
            ("totals", .object(totalFields)),
            ("tags", .array(tags.map { tag in
                .object([("name", .string(tag.name)), ("category", .string(tag.category.rawValue)),
                         ("size", .int(tag.size)), ("packs", .strings(tag.packs))])
            })),
            ("packs", packs),
        ]
    }

    private func json(_ pack: Pack) -> JSONValue {
        json(pack, files: .array(pack.files.map { file in
            var entry: [(String, JSONValue)] = [("path", .string(file.path)), ("size", .int(file.size))]
            if hasArchives { entry.append(("sha256", .optional(file.sha256))) }
            return .object(entry)
        }))
    }

    /// What `JSONValue` writes for a pack's `files` array at its place in the document (nesting level 3).
    private func filesJSON(_ files: [File]) -> [UInt8] {
        if files.isEmpty { return Array("[]".utf8) }
        var output: [UInt8] = []
        output.reserveCapacity(files.count * (hasArchives ? 192 : 96))
        let open = Array("[\n".utf8), start = Array("        {\n          \"path\": ".utf8)
        let size = Array(",\n          \"size\": ".utf8), sha256 = Array(",\n          \"sha256\": ".utf8)
        let null = Array("null".utf8), end = Array("\n        }".utf8), separator = Array(",\n".utf8), close = Array("\n      ]".utf8)
        output.append(contentsOf: open)
        for (index, file) in files.enumerated() {
            if index > 0 { output.append(contentsOf: separator) }
            output.append(contentsOf: start)
            JSONValue.writeString(file.path, to: &output)
            output.append(contentsOf: size)
            JSONValue.writeInteger(file.size, to: &output)
            if hasArchives {
                output.append(contentsOf: sha256)
                if let digest = file.sha256 { JSONValue.writeString(digest, to: &output) } else { output.append(contentsOf: null) }
            }
            output.append(contentsOf: end)
        }
        output.append(contentsOf: close)
        return output
    }

    private func json(_ pack: Pack, files: JSONValue) -> JSONValue {
        var fields: [(String, JSONValue)] = [("id", .string(pack.id))]
        if let assetPackId = pack.assetPackId { fields.append(("assetPackId", .string(assetPackId))) }
        fields += [("file", .string(pack.file)), ("tags", .strings(pack.tags)),
                   ("category", .string(pack.category.rawValue)), ("priority", .optional(pack.priority))]
        if let policy = pack.downloadPolicy { fields.append(("downloadPolicy", policy.json)) }
        if let version = pack.version { fields.append(("version", .int(version))) }
        fields.append(("size", .int(pack.size)))
        if hasArchives {
            fields += [("archiveSize", .optional(pack.archiveSize)), ("archiveSha256", .optional(pack.archiveSha256)),
                       ("contentHash", .optional(pack.contentHash))]
        }
        fields.append(("files", files))
        return .object(fields)
    }
}
