import Foundation
import ODRPackFormats
import ODRPackPlatform

extension BuildManifest {
    /// The document's members in docs/build-output.md's order; a plan's leaves out every field that needs contents or archives.
    package var jsonMembers: [(String, JSONValue)] { members(packs: .array(packs.map(json))) }

    /// The file's bytes: pretty-printed, deterministic; `JSONValue.object(jsonMembers).serialized()`, made faster.
    package func serialized() -> String { String(decoding: serializedBytes(), as: UTF8.self) }

    /// The file's bytes in memory: for a small document (`plan --json`, tests). A build streams them (`write(to:)`).
    package func serializedBytes() -> [UInt8] {
        // A sink in memory never fails.
        (try? DocumentSink.bytes { _ = try write(to: &$0) }) ?? []
    }

    /// The file's bytes, given every pack's part in pack order as `serializedPack` makes them (or as the previous
    /// build's file holds them: `PreviousManifestParts`).
    package func serialized(packs parts: [[UInt8]]) -> [UInt8] {
        JSONValue.object(members(packs: .array(parts.map(JSONValue.written))))
            .serializedBytes(capacity: parts.reduce(1 << 16) { $0 + $1.count + 8 })
    }

    /// Pack `index`'s part as it appears in the file.
    package func serializedPack(_ index: Int) -> [UInt8] {
        (try? DocumentSink.bytes { try writePack(index, to: &$0) }) ?? []
    }

    /// Writes the file into `sink` as it goes (docs/build-output.md#bounded): the members before `packs` whole (they are
    /// small), then each pack's part, its file list a file at a time, so the text is never held whole.
    /// - Parameters:
    ///   - reusing: writes pack `index`'s part itself when it can (copied from the previous build's file) and says
    ///     whether it did; otherwise the part is written here.
    ///   - pack: pack `index` whole, for a manifest that holds its packs without their file lists (a build made from
    ///     its plan a pack at a time); by default `packs[index]`.
    /// - Returns: where each pack's part starts in the file and how long it is, in pack order.
    @discardableResult
    package func write(
        to sink: inout DocumentSink, reusing: ((Int, inout DocumentSink) throws -> Bool)? = nil,
        pack: ((Int) -> Pack)? = nil
    ) throws -> [(offset: Int64, length: Int64)] {
        guard !packs.isEmpty else {
            try sink.append(JSONValue.object(members(packs: .array([]))).serializedBytes())
            return []
        }
        // The document with one placeholder part: what goes before the first part, and after the last.
        let (head, tail) = Self.split(
            JSONValue.object(members(packs: .array([.written(Self.placeholder)]))).serializedBytes())
        try sink.append(head)
        var parts: [(offset: Int64, length: Int64)] = []
        parts.reserveCapacity(packs.count)
        for index in packs.indices {
            if index > 0 { try sink.append(Self.partSeparator) }
            let start = sink.count
            if try reusing?(index, &sink) != true { try write(pack?(index) ?? packs[index], to: &sink) }
            parts.append((start, sink.count - start))
        }
        try sink.append(tail)
        return parts
    }

    /// What stands for a part while the text around it is made: no JSON text holds the byte 0xFF (it is UTF-8).
    private static let placeholder: [UInt8] = [0xFF]
    /// What `JSONValue` writes between two parts of `packs`.
    private static let partSeparator = Array(",\n    ".utf8)

    /// `bytes` before and after the placeholder.
    private static func split(_ bytes: [UInt8]) -> (head: [UInt8], tail: [UInt8]) {
        let index = bytes.firstIndex(of: placeholder[0]) ?? bytes.endIndex
        return (Array(bytes[..<index]), Array(bytes[min(index + 1, bytes.endIndex)...]))
    }

    /// Pack `index`'s part: its members as `JSONValue` writes them, its file list, most of the file, written directly
    /// rather than through a `JSONValue` per file (the same bytes, a test compares them, at 3x the speed).
    package func writePack(_ index: Int, to sink: inout DocumentSink) throws { try write(packs[index], to: &sink) }

    private func write(_ pack: Pack, to sink: inout DocumentSink) throws {
        let (head, tail) = Self.split(json(pack, files: .written(Self.placeholder)).bytes(indent: 2))
        try sink.append(head)
        try writeFiles(pack.files, to: &sink)
        try sink.append(tail)
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
        if let platform { members.append(("platform", .string(platform))) }
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

    /// What `JSONValue` writes for a pack's `files` array at its place in the document (nesting level 3), a file at a time.
    private func writeFiles(_ files: some Collection<File>, to sink: inout DocumentSink) throws {
        if files.isEmpty { return try sink.append(Array("[]".utf8)) }
        let open = Array("[\n".utf8)
        let start = Array("        {\n          \"path\": ".utf8)
        let source = Array(",\n          \"source\": ".utf8)
        let size = Array(",\n          \"size\": ".utf8)
        let sha256 = Array(",\n          \"sha256\": ".utf8)
        let null = Array("null".utf8)
        let end = Array("\n        }".utf8)
        let separator = Array(",\n".utf8)
        let close = Array("\n      ]".utf8)
        sink.buffer.append(contentsOf: open)
        var first = true
        for file in files {
            if !first { sink.buffer.append(contentsOf: separator) }
            first = false
            sink.buffer.append(contentsOf: start)
            JSONValue.writeString(file.path, to: &sink.buffer)
            if let path = file.source {
                sink.buffer.append(contentsOf: source)
                JSONValue.writeString(path, to: &sink.buffer)
            }
            sink.buffer.append(contentsOf: size)
            JSONValue.writeInteger(file.size, to: &sink.buffer)
            if hasArchives {
                sink.buffer.append(contentsOf: sha256)
                if let digest = file.sha256 {
                    JSONValue.writeString(digest, to: &sink.buffer)
                } else {
                    sink.buffer.append(contentsOf: null)
                }
            }
            sink.buffer.append(contentsOf: end)
            try sink.flushIfFull()
        }
        sink.buffer.append(contentsOf: close)
        try sink.flushIfFull()
    }

    private func json(_ pack: Pack, files: JSONValue) -> JSONValue {
        var fields: [(String, JSONValue)] = [("id", .string(pack.id))]
        if let assetPackId = pack.assetPackId { fields.append(("assetPackId", .string(assetPackId))) }
        fields += [
            ("file", .string(pack.file)), ("tags", .strings(pack.tags)),
            ("category", .string(pack.category.rawValue)), ("priority", .optional(pack.priority)),
        ]
        if let policy = pack.downloadPolicy { fields.append(("downloadPolicy", policy.json)) }
        // A Background Assets pack's language (null when not localized) and platforms (docs/background-assets.md).
        if let platforms = pack.platforms {
            fields += [("language", .optional(pack.language)), ("platforms", .strings(platforms))]
        }
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
