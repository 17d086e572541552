import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// The JSON documents of a Background Assets build (docs/background-assets.md), each a pure function of what odrpack-manifest.json
/// holds, so that `verify` regenerates them byte for byte. 2-space indented, one item a line, one final newline.
package enum BackgroundAssetsDocuments {
    /// `<id>.json`, the pack's ba-package manifest: exactly these keys in this order.
    /// `language` only for a localized pack (docs/background-assets.md#languages), between `fileSelectors` and
    /// `platforms`.
    package static func packageManifest(
        assetPackID: String, policy: DownloadPolicy, paths: [String], language: String? = nil, platforms: [String]
    )
        -> String
    {
        JSONValue.object(
            [
                ("assetPackID", .string(assetPackID)),
                ("downloadPolicy", policy.json),
                (
                    "fileSelectors",
                    .array(paths.sorted { $0.precedesByCodePoint($1) }.map { .object([("file", .string($0))]) })
                ),
            ] + (language.map { [("language", JSONValue.string($0))] } ?? []) + [("platforms", .strings(platforms))]
        ).serialized(expandingArrays: true)
    }

    /// `packageManifest(assetPackID:policy:paths:platforms:)` streamed (docs/build-output.md#bounded): the same bytes,
    /// a selector at a time; `paths` is read when the document is written, sorted then.
    package static func packageManifestDocument(
        assetPackID: String, policy: DownloadPolicy, paths: @escaping @Sendable () -> [String],
        language: String? = nil, platforms: [String]
    ) -> StreamedDocument {
        StreamedDocument { sink in
            let outline = JSONValue.object(
                [
                    ("assetPackID", .string(assetPackID)),
                    ("downloadPolicy", policy.json),
                    ("fileSelectors", .written(placeholder)),
                ] + (language.map { [("language", JSONValue.string($0))] } ?? [])
                    + [("platforms", .strings(platforms))]
            ).serializedBytes(expandingArrays: true)
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
            paths: pack.files.map(\.path), language: pack.language, platforms: pack.platforms ?? platforms)
    }

    /// The platforms a pack of `manifest` is for: its own, or for a manifest written before packs had platforms, the
    /// build's (docs/background-assets.md#platforms).
    package static func platforms(of pack: BuildManifest.Pack, in manifest: BuildManifest) -> [String] {
        pack.platforms ?? ApplePlatform.ordered(manifest.backgroundAssets?.platforms ?? [])
    }

    /// `AssetPackTags.json`: tag -> asset pack ids of its packs without a language, asset pack id -> resource paths,
    /// tag -> language -> asset pack ids of its localized packs, and (`includingPlatforms`, the build's copy) asset
    /// pack id -> platforms; every key sorted (docs/background-assets.md#languages). To make a tag available the app
    /// ensures the tag's packs from `tags` and those of its language from `localizedTags`, as ODR's
    /// `NSBundleResourceRequest(tags:)` did.
    package static func assetPackTags(_ manifest: BuildManifest, includingPlatforms: Bool = true) -> String {
        let packs = manifest.packs.map { pack -> (String, JSONValue) in
            (pack.assetPackId ?? pack.id, .strings(pack.files.map(\.path).sorted { $0.precedesByCodePoint($1) }))
        }.sorted { $0.0.precedesByCodePoint($1.0) }
        return JSONValue.object(
            tagMembers(manifest, includingPlatforms: includingPlatforms, packs: .object(packs))
        )
        .serialized(expandingArrays: true)
    }

    /// The members of `AssetPackTags.json` in key order, with `packs` as given.
    private static func tagMembers(_ manifest: BuildManifest, includingPlatforms: Bool, packs: JSONValue) -> [(
        String, JSONValue
    )] {
        let byID = Dictionary(manifest.packs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func assetPackID(_ id: String) -> String { byID[id].map { $0.assetPackId ?? $0.id } ?? id }
        func sorted(_ ids: [String]) -> [String] { ids.sorted { $0.precedesByCodePoint($1) } }
        let tagList = manifest.tags.sorted { $0.name.precedesByCodePoint($1.name) }
        let tags = tagList.map { tag -> (String, JSONValue) in
            (tag.name, .strings(sorted(tag.packs.filter { byID[$0]?.language == nil }.map(assetPackID))))
        }
        let localized = tagList.compactMap { tag -> (String, JSONValue)? in
            var languages: [String: [String]] = [:]
            for id in tag.packs {
                if let language = byID[id]?.language { languages[language, default: []].append(assetPackID(id)) }
            }
            guard !languages.isEmpty else { return nil }
            let entries = languages.keys.sorted { $0.precedesByCodePoint($1) }.map {
                ($0, JSONValue.strings(sorted(languages[$0]!)))
            }
            return (tag.name, .object(entries))
        }
        var members: [(String, JSONValue)] = [
            ("bundleId", .string(manifest.bundleId)), ("localizedTags", .object(localized)), ("packs", packs),
        ]
        if includingPlatforms {
            let platforms = manifest.packs.map {
                ($0.assetPackId ?? $0.id, JSONValue.strings(Self.platforms(of: $0, in: manifest)))
            }.sorted { $0.0.precedesByCodePoint($1.0) }
            members.append(("platforms", .object(platforms)))
        }
        members.append(("tags", .object(tags)))
        return members
    }

    /// The build manifest as an app of `platform` sees it (docs/background-assets.md#platforms): its packs for that
    /// platform, and each tag with those of its packs.
    package static func manifest(_ manifest: BuildManifest, for platform: String) -> BuildManifest {
        var thinned = manifest
        thinned.packs = manifest.packs.filter { platforms(of: $0, in: manifest).contains(platform) }
        let kept = Set(thinned.packs.map(\.id))
        thinned.tags = manifest.tags.compactMap { tag in
            var tag = tag
            tag.packs = tag.packs.filter(kept.contains)
            return tag.packs.isEmpty ? nil : tag
        }
        return thinned
    }

    /// `assetPackTags(manifest)` streamed (docs/build-output.md#bounded): the same bytes, each pack's paths sorted and
    /// written one pack at a time, never the whole text or a `JSONValue` per path.
    package static func assetPackTagsDocument(_ manifest: BuildManifest, includingPlatforms: Bool = true)
        -> StreamedDocument
    {
        StreamedDocument { sink in
            let order = manifest.packs.indices.sorted {
                (manifest.packs[$0].assetPackId ?? manifest.packs[$0].id).precedesByCodePoint(
                    manifest.packs[$1].assetPackId ?? manifest.packs[$1].id)
            }
            // Each pack's path list stands as a placeholder in the small document around them, then is written in its place.
            let outline = JSONValue.object(
                tagMembers(
                    manifest, includingPlatforms: includingPlatforms,
                    packs: .object(
                        order.map { (manifest.packs[$0].assetPackId ?? manifest.packs[$0].id, .written(placeholder)) }
                    ))
            ).serializedBytes(expandingArrays: true)
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
