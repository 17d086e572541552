import Crypto
import Foundation

/// Xcode's asset pack naming, so ids stay stable across versions and match what Xcode makes (docs/manifest.md#pack-identity).
package enum PackIdentity {
    /// The longest pack file name, in UTF-8 bytes.
    static let maxFileNameBytes = 240

    /// Lowercase hex MD5 of the sorted tags joined with ":".
    package static func digest(tags: [String]) -> String {
        let joined = tags.sorted().joined(separator: ":")
        return Insecure.MD5.hash(data: Data(joined.utf8)).hexString
    }

    /// `<bundle-id>.asset-pack-<md5hex>`
    package static func id(bundleID: String, tags: [String]) -> String {
        "\(bundleID).asset-pack-\(digest(tags: tags))"
    }

    /// `<bundle-id>.<tags joined with "+">-<md5hex>.assetpack`, its first part cut at a character
    /// (Unicode scalar) boundary so the whole name is at most 240 UTF-8 bytes.
    package static func fileName(bundleID: String, tags: [String]) -> String {
        let suffix = "-\(digest(tags: tags)).assetpack"
        let budget = maxFileNameBytes - suffix.utf8.count
        var prefix = "\(bundleID).\(tags.sorted().joined(separator: "+"))"
        if prefix.utf8.count > budget {
            var scalars = String.UnicodeScalarView()
            var used = 0
            for scalar in prefix.unicodeScalars {
                let length = String(scalar).utf8.count
                if used + length > budget { break }
                scalars.append(scalar)
                used += length
            }
            prefix = String(scalars)
        }
        return prefix + suffix
    }
}
