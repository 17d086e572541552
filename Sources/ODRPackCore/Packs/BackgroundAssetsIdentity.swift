/// A Background Assets asset pack id (docs/background-assets.md): what the app passes to `AssetPackManager` and App Store Connect lists.
/// Only `A-Z a-z 0-9 -` (App Store Connect rejects `_` and `.`), at most 59 characters, stable across versions because it
/// derives from the tags alone, and unique through the pack's md5 (docs/manifest.md#pack-identity).
package enum BackgroundAssetsIdentity {
    /// The readable part's longest length, before `-` and the 8 hex digits.
    static let maxReadableLength = 50

    package static func assetPackID(tags: [String]) -> String {
        var readable = String(tags.sorted().map(sanitized).joined(separator: "-").prefix(maxReadableLength))
        while readable.last == "-" { readable.removeLast() }
        return readable + "-" + PackIdentity.digest(tags: tags).prefix(8)
    }

    /// What follows a tag set's ids for one of its packs (docs/background-assets.md#platforms and #languages): `-` and
    /// the pack's platforms (lowercase, in the order iOS, macOS, tvOS, visionOS, joined with `-`) when they are not
    /// `allPlatforms`, then `-` and the language of a localized pack: `-tvos`, `-fr`, `-tvos-fr`. Empty for a pack
    /// for every platform without a language, whose ids stay those of its tag set.
    package static func suffix(platforms: [String], allPlatforms: [String], language: String?) -> String {
        var suffix = ""
        let ordered = ApplePlatform.ordered(platforms)
        if ordered != ApplePlatform.ordered(allPlatforms) {
            suffix += "-" + ordered.compactMap { ApplePlatform(rawValue: $0)?.idPart }.joined(separator: "-")
        }
        if let language { suffix += "-" + language }
        return suffix
    }

    /// A tag with every run of characters outside `A-Z a-z 0-9` replaced by one `-`, without `-` at either end;
    /// `tag` when nothing is left.
    static func sanitized(_ tag: String) -> String {
        var out = ""
        var pendingDash = false
        for scalar in tag.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                out.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return out.isEmpty ? "tag" : out
    }
}
