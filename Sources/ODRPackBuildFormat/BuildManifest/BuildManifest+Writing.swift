import Foundation
import ODRPackFormats
import ODRPackPlatform

extension BuildManifest {
    /// The document's members in docs/build-output.md's order; a plan's leaves out every field that needs contents or archives.
    package var jsonMembers: [(String, JSONValue)] { members(packs: .array(packs.map(json))) }

    /// The file's bytes: pretty-printed, deterministic; `JSONValue.object(jsonMembers).serialized()`, made faster.
    package func serialized() -> String { String(decoding: serializedBytes(), as: UTF8.self) }

    package func serializedBytes() -> [UInt8] { serialized(packs: packs.indices.map(serializedPack)) }

    /// The file's bytes, given every pack's part in pack order as `serializedPack` makes them (or as the previous
    /// build's file holds them: `PreviousManifestParts`).
    package func serialized(packs parts: [[UInt8]]) -> [UInt8] {
        JSONValue.object(members(packs: .array(parts.map(JSONValue.written))))
            .serializedBytes(capacity: parts.reduce(1 << 16) { $0 + $1.count + 8 })
    }

    /// Pack `index`'s part as it appears in the file. Its file list, most of the file, is written directly rather
    /// than through a `JSONValue` per file: the same bytes (a test compares them) at 3x the speed.
    package func serializedPack(_ index: Int) -> [UInt8] {
        let files = filesJSON(packs[index].files)
        return json(packs[index], files: .written(files)).bytes(indent: 2, capacity: files.count + 4096)
    }

    /// What decides pack `index`'s part besides its file list, for which its contentHash stands (the SHA-256 of the
    /// files' paths, sizes and sha256s, docs/build-output.md): equal keys, equal parts. Nil without a contentHash or a file's sha256.
    package func partKey(_ index: Int) -> String? {
        let pack = packs[index]
        guard hasArchives, pack.contentHash != nil, pack.files.allSatisfy({ $0.sha256 != nil }) else { return nil }
        // The contentHash covers destinations, not sources: a file list whose sources differ stands by their digest.
        var sources = SHA256Hasher()
        for file in pack.files { if let source = file.source { sources.update("\(file.path)\0\(source)\0") } }
        let files: JSONValue =
            pack.files.contains { $0.source != nil }
            ? .array([.int(Int64(pack.files.count)), .string(sources.finalize())]) : .int(Int64(pack.files.count))
        return json(pack, files: files).bytes(indent: 2).withUnsafeBytes(SHA256Hasher.hex)
    }

    /// Where each of `parts` (every pack's, in order, as `serialized(packs:)` took them) starts in `document`; nil
    /// when one is not exactly where the layout puts it. `packs` is the last member: the parts end the document.
    package static func partOffsets(_ parts: [[UInt8]], in document: [UInt8]) -> [Int]? {
        let end = Array("\n  ]\n}\n".utf8)
        let separator = Array(",\n    ".utf8)
        guard !parts.isEmpty, holds(document, end, at: document.count - end.count) else { return nil }
        var offsets = Array(repeating: 0, count: parts.count)
        var limit = document.count - end.count
        for index in parts.indices.reversed() {
            let start = limit - parts[index].count
            guard holds(document, parts[index], at: start) else { return nil }
            offsets[index] = start
            limit = start - separator.count
            if index > 0 && !holds(document, separator, at: limit) { return nil }
        }
        return offsets
    }

    /// Whether `document` holds `bytes` at `start`.
    private static func holds(_ document: [UInt8], _ bytes: [UInt8], at start: Int) -> Bool {
        guard start >= 0, start + bytes.count <= document.count else { return false }
        return bytes.isEmpty
            || document.withUnsafeBytes { whole in
                bytes.withUnsafeBytes { memcmp(whole.baseAddress! + start, $0.baseAddress!, bytes.count) == 0 }
            }
    }

    private func members(packs: JSONValue) -> [(String, JSONValue)] {
        var totalFields: [(String, JSONValue)] = [("packs", .int(totals.packs)), ("size", .int(totals.size))]
        if let archiveSize = totals.archiveSize { totalFields.append(("archiveSize", .int(archiveSize))) }
        totalFields += [
            ("initialInstallSize", .int(totals.initialInstallSize)),
            ("initialPrefetchSize", .int(totals.initialPrefetchSize)),
        ]
        var members: [(String, JSONValue)] = [
            ("schemaVersion", .int(Int64(schemaVersion))), ("format", .string(format.rawValue)),
        ]
        if let settings = backgroundAssets {
            members.append(
                (
                    "backgroundAssets",
                    .object([
                        ("hosting", .string(settings.hosting.rawValue)), ("platforms", .strings(settings.platforms)),
                        ("events", .strings(settings.events)), ("appGroup", .optional(settings.appGroup)),
                        ("urlPrefix", .optional(settings.urlPrefix)),
                        (
                            "packager",
                            settings.packagerCommand.map {
                                .object([("command", .string($0)), ("version", .optional(settings.packagerVersion))])
                            } ?? .null
                        ),
                    ])
                ))
        }
        return members + [
            ("bundleId", .string(bundleId)),
            ("profile", .string(profile)),
            ("limits", .object(limits.map { ($0.key.rawValue, .optional($0.value)) })),
            ("initialInstallTags", .strings(initialInstallTags)),
            ("prefetchOrder", .strings(prefetchOrder)),
            (
                "appBundle",
                countsAppBundle ? .object([("files", .int(appBundleFiles)), ("size", .int(appBundleSize))]) : .null
            ),
            ("totals", .object(totalFields)),
            (
                "tags",
                .array(
                    tags.map { tag in
                        .object([
                            ("name", .string(tag.name)), ("category", .string(tag.category.rawValue)),
                            ("size", .int(tag.size)), ("packs", .strings(tag.packs)),
                        ])
                    })
            ),
            ("packs", packs),
        ]
    }

    private func json(_ pack: Pack) -> JSONValue {
        json(
            pack,
            files: .array(
                pack.files.map { file in
                    var entry: [(String, JSONValue)] = [("path", .string(file.path))]
                    if let source = file.source { entry.append(("source", .string(source))) }
                    entry.append(("size", .int(file.size)))
                    if hasArchives { entry.append(("sha256", .optional(file.sha256))) }
                    return .object(entry)
                }))
    }

    /// What `JSONValue` writes for a pack's `files` array at its place in the document (nesting level 3).
    private func filesJSON(_ files: Files) -> [UInt8] {
        if files.isEmpty { return Array("[]".utf8) }
        var output: [UInt8] = []
        output.reserveCapacity(files.count * (hasArchives ? 192 : 96))
        let open = Array("[\n".utf8)
        let start = Array("        {\n          \"path\": ".utf8)
        let source = Array(",\n          \"source\": ".utf8)
        let size = Array(",\n          \"size\": ".utf8)
        let sha256 = Array(",\n          \"sha256\": ".utf8)
        let null = Array("null".utf8)
        let end = Array("\n        }".utf8)
        let separator = Array(",\n".utf8)
        let close = Array("\n      ]".utf8)
        output.append(contentsOf: open)
        for (index, file) in files.enumerated() {
            if index > 0 { output.append(contentsOf: separator) }
            output.append(contentsOf: start)
            JSONValue.writeString(file.path, to: &output)
            if let path = file.source {
                output.append(contentsOf: source)
                JSONValue.writeString(path, to: &output)
            }
            output.append(contentsOf: size)
            JSONValue.writeInteger(file.size, to: &output)
            if hasArchives {
                output.append(contentsOf: sha256)
                if let digest = file.sha256 {
                    JSONValue.writeString(digest, to: &output)
                } else {
                    output.append(contentsOf: null)
                }
            }
            output.append(contentsOf: end)
        }
        output.append(contentsOf: close)
        return output
    }

    private func json(_ pack: Pack, files: JSONValue) -> JSONValue {
        var fields: [(String, JSONValue)] = [("id", .string(pack.id))]
        if let assetPackId = pack.assetPackId { fields.append(("assetPackId", .string(assetPackId))) }
        fields += [
            ("file", .string(pack.file)), ("tags", .strings(pack.tags)),
            ("category", .string(pack.category.rawValue)), ("priority", .optional(pack.priority)),
        ]
        if let policy = pack.downloadPolicy { fields.append(("downloadPolicy", policy.json)) }
        if let version = pack.version { fields.append(("version", .int(version))) }
        fields.append(("size", .int(pack.size)))
        if hasArchives {
            fields += [
                ("archiveSize", .optional(pack.archiveSize)), ("archiveSha256", .optional(pack.archiveSha256)),
                ("contentHash", .optional(pack.contentHash)),
            ]
        }
        fields.append(("files", files))
        return .object(fields)
    }
}
