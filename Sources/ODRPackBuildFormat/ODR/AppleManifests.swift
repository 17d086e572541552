import Foundation
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// The plists Xcode's On-Demand Resources runtime reads (docs/build-output.md).
package enum AppleManifests {
    package static let onDemandResourcesFile = "OnDemandResources.plist"
    package static let templateFile = "AssetPackManifestTemplate.plist"
    package static let manifestFile = "AssetPackManifest.plist"
    package static let packsFolder = "OnDemandResources"

    /// A pack's Info.plist: its id, sorted tags and priority.
    package static func infoPlist(for pack: AssetPack) -> PropertyListValue {
        infoPlist(id: pack.id, tags: pack.tags, priority: pack.priority)
    }

    package static func infoPlist(id: String, tags: [String], priority: Double?) -> PropertyListValue {
        PackInfo.propertyList(id: id, tags: tags, priority: priority)
    }

    /// Tag → packs, and pack → resource paths.
    package static func onDemandResources(_ plan: PackPlan) -> PropertyListValue {
        onDemandResources(
            tags: plan.tags.lazy.map { (name: $0.name, packs: $0.packs) },
            packs: plan.packs.lazy.map { (id: $0.id, paths: $0.files.map(\.path)) })
    }

    /// The same document from a build manifest: what `verify` compares the written one with.
    package static func onDemandResources(_ manifest: BuildManifest) -> PropertyListValue {
        onDemandResources(
            tags: manifest.tags.lazy.map { (name: $0.name, packs: $0.packs) },
            packs: manifest.packs.lazy.map { (id: $0.id, paths: $0.files.map(\.path)) })
    }

    /// The one writer of OnDemandResources.plist, whichever of the two forms its facts come in.
    static func onDemandResources(
        tags: some Sequence<(name: String, packs: [String])>, packs: some Sequence<(id: String, paths: [String])>
    ) -> PropertyListValue {
        var tagValues: [String: PropertyListValue] = [:]
        for tag in tags {
            tagValues[tag.name] = .dictionary([
                "NSAssetPacks": .array(tag.packs.sorted().map(PropertyListValue.string))
            ])
        }
        var packValues: [String: PropertyListValue] = [:]
        for pack in packs { packValues[pack.id] = .array(pack.paths.map(PropertyListValue.string)) }
        return .dictionary([
            "NSBundleResourceRequestTags": .dictionary(tagValues),
            "NSBundleResourceRequestAssetPacks": .dictionary(packValues),
        ])
    }

    /// OnDemandResources.plist streamed from the plan (docs/build-output.md#bounded): the bytes of
    /// `onDemandResources(plan).binaryData()`, never held whole.
    package static func onDemandResourcesDocument(_ plan: PackPlan) -> StreamedDocument {
        StreamedDocument { sink in
            try writeOnDemandResources(
                tags: plan.tags.map { (name: $0.name, packs: $0.packs) }, packIDs: plan.packs.map(\.id),
                paths: { plan.packs[$0].files.lazy.map(\.path) }, to: &sink)
        }
    }

    /// The same document from a build manifest, streamed: what `verify` compares the written one with.
    package static func onDemandResourcesDocument(_ manifest: BuildManifest) -> StreamedDocument {
        StreamedDocument { sink in
            try writeOnDemandResources(
                tags: manifest.tags.map { (name: $0.name, packs: $0.packs) }, packIDs: manifest.packs.map(\.id),
                paths: { manifest.packs[$0].files.lazy.map(\.path) }, to: &sink)
        }
    }

    /// `onDemandResources(tags:packs:)` written object by object: the same objects in the same order (keys in
    /// code-point order; where a name repeats, the last one's value, as a dictionary keeps it), each pack's paths
    /// read as they are written.
    static func writeOnDemandResources<Paths: Sequence<String>>(
        tags: [(name: String, packs: [String])], packIDs: [String], paths: (Int) -> Paths,
        to sink: inout DocumentSink
    ) throws {
        let tagOrder = keyOrder(tags.map(\.name))
        let packOrder = keyOrder(packIDs)
        try BinaryPropertyListStream.write(to: &sink) { plist in
            let root = plist.reserve()
            let keys = [
                try plist.string("NSBundleResourceRequestAssetPacks"), try plist.string("NSBundleResourceRequestTags"),
            ]
            let packsObject = plist.reserve()
            let packKeys = try packOrder.map { try plist.string(packIDs[$0.key]) }
            var packValues: [Int] = []
            for index in packOrder.map(\.value) {
                let array = plist.reserve()
                var count = 0
                for path in paths(index) {
                    try plist.string(path)
                    count += 1
                }
                try plist.array(array, refs: (array + 1)..<(array + 1 + count))
                packValues.append(array)
            }
            try plist.dictionary(packsObject, keys: packKeys, values: packValues)
            let tagsObject = plist.reserve()
            let tagKeys = try tagOrder.map { try plist.string(tags[$0.key].name) }
            var tagValues: [Int] = []
            for index in tagOrder.map(\.value) {
                let dictionary = plist.reserve()
                let key = try plist.string("NSAssetPacks")
                let array = plist.reserve()
                let ids = tags[index].packs.sorted()
                for id in ids { try plist.string(id) }
                try plist.array(array, refs: (array + 1)..<(array + 1 + ids.count))
                try plist.dictionary(dictionary, keys: [key], values: [array])
                tagValues.append(dictionary)
            }
            try plist.dictionary(tagsObject, keys: tagKeys, values: tagValues)
            try plist.dictionary(root, keys: keys, values: [packsObject, tagsObject])
        }
    }

    /// What a Swift dictionary keyed by `names` keeps, in code-point order of its keys: for each name (as `String`
    /// compares them) the first index's name as the key, and the last index's value.
    private static func keyOrder(_ names: [String]) -> [(key: Int, value: Int)] {
        var slots: [String: (key: Int, value: Int)] = [:]
        for (index, name) in names.enumerated() {
            slots[name] = (slots[name]?.key ?? index, index)
        }
        return slots.values.sorted { names[$0.key].precedesByCodePoint(names[$1.key]) }
    }

    /// How a manifest writes `isStreamable`: Xcode's build products hold a plist boolean, its exports the integer
    /// 1 or 0 (docs/build-output.md).
    package enum StreamableForm: Sendable {
        /// `AssetPackManifestTemplate.plist` and `thin --embed`'s `AssetPackManifest.plist`.
        case boolean
        /// The `--url-prefix` `AssetPackManifest.plist`.
        case integer
    }

    /// One resource per pack, sorted by bundleKey. Each URL is the prefix (with `--url-prefix`) and one "/" unless it
    /// ends with one, else `packsURL`, followed by the percent-encoded pack file name; a prefix makes the export
    /// form, none the template.
    package static func assetPackManifest(
        _ plan: PackPlan, facts: [String: PackArchiveFacts], urlPrefix: String?,
        packsURL: String
    ) -> PropertyListValue {
        assetPackManifest(
            plan.packs.map { pack in
                PackFacts(
                    id: pack.id, fileName: pack.fileName,
                    uncompressedSize: facts[pack.id]?.uncompressedSize ?? pack.size, priority: pack.priority,
                    contentHash: facts[pack.id]?.contentHash ?? "")
            }, urlPrefix: urlPrefix, packsURL: packsURL)
    }

    /// The same document from a build manifest (`verify`): a pack's uncompressed size is its resources' and its
    /// Info.plist's bytes, as writing it counted them.
    package static func assetPackManifest(_ manifest: BuildManifest, urlPrefix: String?, packsURL: String)
        -> PropertyListValue
    {
        assetPackManifest(
            manifest.packs.map { pack in
                PackFacts(
                    id: pack.id, fileName: pack.file.splitAtLastSlash().map { String($0.name) } ?? pack.file,
                    uncompressedSize: [
                        pack.size,
                        Int64(infoPlist(id: pack.id, tags: pack.tags, priority: pack.priority).binaryData().count),
                    ].saturatingSum,
                    priority: pack.priority, contentHash: pack.contentHash ?? "")
            }, urlPrefix: urlPrefix, packsURL: packsURL)
    }

    /// What the asset-pack manifest says of one pack.
    struct PackFacts {
        let id: String
        let fileName: String
        let uncompressedSize: Int64
        let priority: Double?
        let contentHash: String
    }

    /// The one writer of the asset-pack manifest, whichever of the two forms its facts come in.
    static func assetPackManifest(_ packs: [PackFacts], urlPrefix: String?, packsURL: String) -> PropertyListValue {
        let resources = packs.sorted { $0.id < $1.id }.map { pack in
            assetPackResource(
                id: pack.id,
                url: urlPrefix.map { URLPrefix.join($0, percentEncoded(pack.fileName)) }
                    ?? packsURL + percentEncoded(pack.fileName),
                uncompressedSize: pack.uncompressedSize, priority: pack.priority, contentHash: pack.contentHash,
                streamable: urlPrefix == nil ? .boolean : .integer)
        }
        return .dictionary(["resources": .array(resources)])
    }

    /// One pack's entry in AssetPackManifest(Template).plist.
    package static func assetPackResource(
        id: String, url: String, uncompressedSize: Int64, priority: Double?,
        contentHash: String, streamable form: StreamableForm
    ) -> PropertyListValue {
        let streamable = url.hasPrefix("http:") || url.hasPrefix("https:")
        var values: [String: PropertyListValue] = [
            "bundleKey": .string(id),
            "URL": .string(url),
            "isStreamable": form == .boolean ? .bool(streamable) : .int(streamable ? 1 : 0),
            "uncompressedSize": .int(uncompressedSize),
            "primaryContentHash": .dictionary([
                "strategy": .string("modtime"),
                "hash": .string(contentTimestamp(contentHash)),
            ]),
        ]
        if let priority { values["downloadPriority"] = .real(priority) }
        return .dictionary(values)
    }

    /// Percent-encodes everything but unreserved characters, sub-delimiters, ':', '@' and '/'.
    package static func percentEncoded(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~!$&'()*+,;=:@/")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    /// 2001-01-01T00:00:00Z and 2021-01-01T00:00:00Z in seconds since 1970: the timestamps' range (docs/build-output.md).
    static let timestampRange: Range<Int64> = 978_307_200..<1_609_459_200

    /// An ISO-8601 UTC time in whole seconds, written with ".000" as Xcode's exports write it, derived from the
    /// content hash: it changes exactly when the content does, never because a file was touched; it lies in
    /// 2001-01-01 ..< 2021-01-01, so never in the future.
    static func contentTimestamp(_ contentHash: String) -> String {
        let prefix = UInt64(contentHash.prefix(16), radix: 16) ?? 0
        let span = UInt64(timestampRange.upperBound - timestampRange.lowerBound)
        let time = UTCTime(secondsSince1970: Int64(prefix % span) + timestampRange.lowerBound)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.000Z", time.year, time.month, time.day, time.hour, time.minute,
            time.second)
    }
}
