import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// The JSON documents of a Background Assets build (docs/background-assets.md), each a pure function of what odrpack-manifest.json
/// holds, so that `verify` regenerates them byte for byte. 2-space indented, one item a line, one final newline.
package enum BackgroundAssetsDocuments {
    /// `<id>.json`, the pack's ba-package manifest: exactly these keys in this order.
    package static func packageManifest(
        assetPackID: String, policy: DownloadPolicy, paths: [String], platforms: [String]
    )
        -> String
    {
        JSONValue.object([
            ("assetPackID", .string(assetPackID)),
            ("downloadPolicy", policy.json),
            (
                "fileSelectors",
                .array(paths.sorted { $0.precedesByCodePoint($1) }.map { .object([("file", .string($0))]) })
            ),
            ("platforms", .strings(platforms)),
        ]).serialized(expandingArrays: true)
    }

    /// `packageManifest(assetPackID:policy:paths:platforms:)` streamed (docs/build-output.md#bounded): the same bytes,
    /// a selector at a time; `paths` is read when the document is written, sorted then.
    package static func packageManifestDocument(
        assetPackID: String, policy: DownloadPolicy, paths: @escaping @Sendable () -> [String], platforms: [String]
    ) -> StreamedDocument {
        StreamedDocument { sink in
            let outline = JSONValue.object([
                ("assetPackID", .string(assetPackID)),
                ("downloadPolicy", policy.json),
                ("fileSelectors", .written(placeholder)),
                ("platforms", .strings(platforms)),
            ]).serializedBytes(expandingArrays: true)
            let pieces = outline.split(separator: placeholder[0], maxSplits: 1, omittingEmptySubsequences: false)
            try sink.append(Array(pieces[0]))
            let sorted = paths().sorted { $0.precedesByCodePoint($1) }
            if sorted.isEmpty {
                try sink.append(Array("[]".utf8))
            } else {
                let start = Array("    {\n      \"file\": ".utf8)
                let end = Array("\n    }".utf8)
                sink.buffer.append(contentsOf: Array("[\n".utf8))
                for (index, path) in sorted.enumerated() {
                    sink.buffer.append(contentsOf: start)
                    JSONValue.writeString(path, to: &sink.buffer)
                    sink.buffer.append(contentsOf: end)
                    sink.buffer.append(contentsOf: index == sorted.count - 1 ? [0x0A] : [0x2C, 0x0A])
                    try sink.flushIfFull()
                }
                sink.buffer.append(contentsOf: Array("  ]".utf8))
            }
            if pieces.count > 1 { try sink.append(Array(pieces[1])) }
        }
    }

    package static func packageManifest(_ pack: BuildManifest.Pack, platforms: [String]) -> String {
        packageManifest(
            assetPackID: pack.assetPackId ?? "", policy: pack.downloadPolicy ?? .onDemand,
            paths: pack.files.map(\.path), platforms: platforms)
    }

    /// `AssetPackTags.json`: tag -> asset pack ids and asset pack id -> resource paths, every key sorted. To make a
    /// tag available the app ensures every pack of the tag, as ODR's `NSBundleResourceRequest(tags:)` did.
    package static func assetPackTags(_ manifest: BuildManifest) -> String {
        let assetPackIDs = Dictionary(
            manifest.packs.map { ($0.id, $0.assetPackId ?? $0.id) }, uniquingKeysWith: { first, _ in first })
        let tags = manifest.tags.sorted { $0.name.precedesByCodePoint($1.name) }.map { tag -> (String, JSONValue) in
            (tag.name, .strings(tag.packs.map { assetPackIDs[$0] ?? $0 }.sorted { $0.precedesByCodePoint($1) }))
        }
        let packs = manifest.packs.map { pack -> (String, JSONValue) in
            (pack.assetPackId ?? pack.id, .strings(pack.files.map(\.path).sorted { $0.precedesByCodePoint($1) }))
        }.sorted { $0.0.precedesByCodePoint($1.0) }
        return JSONValue.object([
            ("bundleId", .string(manifest.bundleId)), ("packs", .object(packs)), ("tags", .object(tags)),
        ])
        .serialized(expandingArrays: true)
    }

    /// `assetPackTags(manifest)` streamed (docs/build-output.md#bounded): the same bytes, each pack's paths sorted and
    /// written one pack at a time, never the whole text or a `JSONValue` per path.
    package static func assetPackTagsDocument(_ manifest: BuildManifest) -> StreamedDocument {
        StreamedDocument { sink in
            let assetPackIDs = Dictionary(
                manifest.packs.map { ($0.id, $0.assetPackId ?? $0.id) }, uniquingKeysWith: { first, _ in first })
            let tags = manifest.tags.sorted { $0.name.precedesByCodePoint($1.name) }.map {
                tag -> (String, JSONValue) in
                (tag.name, .strings(tag.packs.map { assetPackIDs[$0] ?? $0 }.sorted { $0.precedesByCodePoint($1) }))
            }
            let order = manifest.packs.indices.sorted {
                (manifest.packs[$0].assetPackId ?? manifest.packs[$0].id).precedesByCodePoint(
                    manifest.packs[$1].assetPackId ?? manifest.packs[$1].id)
            }
            // Each pack's path list stands as a placeholder in the small document around them, then is written in its place.
            let outline = JSONValue.object([
                ("bundleId", .string(manifest.bundleId)),
                (
                    "packs",
                    .object(
                        order.map { (manifest.packs[$0].assetPackId ?? manifest.packs[$0].id, .written(placeholder)) })
                ),
                ("tags", .object(tags)),
            ]).serializedBytes(expandingArrays: true)
            let pieces = outline.split(separator: placeholder[0], omittingEmptySubsequences: false)
            for (number, piece) in pieces.enumerated() {
                try sink.append(Array(piece))
                guard number < order.count else { continue }
                let paths = manifest.packs[order[number]].files.map(\.path).sorted { $0.precedesByCodePoint($1) }
                try writeStrings(paths, indent: 2, to: &sink)
            }
        }
    }

    /// What stands for a list while the text around it is made: no JSON text holds the byte 0xFF (it is UTF-8).
    private static let placeholder: [UInt8] = [0xFF]

    /// What `JSONValue.strings(strings)` writes at nesting level `indent` with `expandingArrays`, a string at a time.
    private static func writeStrings(_ strings: [String], indent: Int, to sink: inout DocumentSink) throws {
        guard !strings.isEmpty else { return try sink.append(Array("[]".utf8)) }
        let inner = [UInt8](repeating: UInt8(ascii: " "), count: (indent + 1) * 2)
        sink.buffer.append(contentsOf: Array("[\n".utf8))
        for (index, string) in strings.enumerated() {
            sink.buffer.append(contentsOf: inner)
            JSONValue.writeString(string, to: &sink.buffer)
            sink.buffer.append(contentsOf: index == strings.count - 1 ? [0x0A] : [0x2C, 0x0A])
            try sink.flushIfFull()
        }
        sink.buffer.append(contentsOf: [UInt8](repeating: UInt8(ascii: " "), count: indent * 2) + [UInt8(ascii: "]")])
    }

    /// `site/download-manifest.json` for `hosting: self`: every pack at its immutable address
    /// `URL/<id>-<16 hex of contentHash>`, sorted by id; `live` gives the download size of packs already published
    /// at that address (their bytes on the server are what devices download).
    package static func downloadManifest(_ manifest: BuildManifest, urlPrefix: String, live: [String: Int64] = [:])
        -> String
    {
        let packs = manifest.packs.sorted { ($0.assetPackId ?? "").precedesByCodePoint($1.assetPackId ?? "") }.map {
            pack -> JSONValue in
            let id = pack.assetPackId ?? pack.id
            return .object([
                ("id", .string(id)),
                (
                    "url",
                    .string(
                        packURL(urlPrefix, BackgroundAssetsLayout.siteName(of: id, contentHash: pack.contentHash ?? ""))
                    )
                ),
                ("version", .int(pack.version ?? 0)),
                ("downloadSize", .int(live[id] ?? pack.archiveSize ?? 0)),
                ("downloadPolicy", (pack.downloadPolicy ?? .onDemand).json),
                ("host", .object([("thirdParty", .object([]))])),
            ])
        }
        return JSONValue.object([("assetPacks", .array(packs))]).serialized(expandingArrays: true)
    }

    /// `URL/<id>` with exactly one "/" between.
    package static func packURL(_ urlPrefix: String, _ id: String) -> String {
        var base = Substring(urlPrefix)
        while base.hasSuffix("/") { base = base.dropLast() }
        return String(base).slashJoined(id)
    }

    /// Where the app finds the self-hosted manifest: its `BAManifestURL`.
    package static func manifestURL(_ urlPrefix: String) -> String { packURL(urlPrefix, downloadManifestFile) }

    static var downloadManifestFile: String { BackgroundAssetsLayout.downloadManifestFile }
}
