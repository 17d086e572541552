import Foundation

/// The plists Xcode's On-Demand Resources runtime reads (SPEC 7).
public enum AppleManifests {
    public static let onDemandResourcesFile = "OnDemandResources.plist"
    public static let templateFile = "AssetPackManifestTemplate.plist"
    public static let manifestFile = "AssetPackManifest.plist"
    public static let packsFolder = "OnDemandResources"

    /// A pack's Info.plist: its id, sorted tags and priority.
    public static func infoPlist(for pack: AssetPack) -> PropertyListValue {
        var values: [String: PropertyListValue] = [
            "CFBundleIdentifier": .string(pack.id),
            "Tags": .array(pack.tags.map(PropertyListValue.string)),
        ]
        if let priority = pack.priority { values["Priority"] = .real(priority) }
        return .dictionary(values)
    }

    /// Tag → packs, and pack → resource paths.
    public static func onDemandResources(_ plan: PackPlan) -> PropertyListValue {
        var tags: [String: PropertyListValue] = [:]
        for tag in plan.tags {
            tags[tag.name] = .dictionary(["NSAssetPacks": .array(tag.packs.sorted().map(PropertyListValue.string))])
        }
        var packs: [String: PropertyListValue] = [:]
        for pack in plan.packs { packs[pack.id] = .array(pack.files.map { .string($0.path) }) }
        return .dictionary(["NSBundleResourceRequestTags": .dictionary(tags), "NSBundleResourceRequestAssetPacks": .dictionary(packs)])
    }

    /// One resource per pack, sorted by bundleKey; URLs point at the prefix or at the archive on this machine.
    public static func assetPackManifest(_ plan: PackPlan, contentHashes: [String: String], urlPrefix: String?,
                                         outputDirectory: String) -> PropertyListValue {
        let resources = plan.packs.sorted { $0.id < $1.id }.map { pack -> PropertyListValue in
            let url: String
            if let urlPrefix {
                url = urlPrefix + percentEncoded(pack.fileName)
            } else {
                url = "http://127.0.0.1" + percentEncoded(outputDirectory + "/" + packsFolder + "/" + pack.fileName)
            }
            var values: [String: PropertyListValue] = [
                "bundleKey": .string(pack.id),
                "URL": .string(url),
                "isStreamable": .bool(url.hasPrefix("http:") || url.hasPrefix("https:")),
                "uncompressedSize": .int(pack.size),
                "primaryContentHash": .dictionary([
                    "strategy": .string("modtime"),
                    "hash": .string(contentTimestamp(contentHashes[pack.id] ?? "")),
                ]),
            ]
            if let priority = pack.priority { values["downloadPriority"] = .real(priority) }
            return .dictionary(values)
        }
        return .dictionary(["resources": .array(resources)])
    }

    /// Percent-encodes everything but unreserved characters, sub-delimiters, ':', '@' and '/'.
    static func percentEncoded(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~!$&'()*+,;=:@/")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    /// An ISO-8601 UTC time with milliseconds derived from the content hash: it changes exactly when
    /// the content does, never because a file was touched. Spread over 2001-01-01 to about 2101.
    public static func contentTimestamp(_ contentHash: String) -> String {
        let prefix = UInt64(contentHash.prefix(16), radix: 16) ?? 0
        let span: UInt64 = 100 * 365 * 24 * 3600 * 1000
        let milliseconds = Int64(prefix % span) + 978_307_200_000
        let seconds = milliseconds / 1000
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(milliseconds % 1000))
    }
}
