import ODRPackFormats

/// A pack's `Info.plist` (docs/build-output.md): its id, sorted tags and priority, nothing else. It lives here, beside
/// the packs, so that `plan` can weigh the very bytes `build` writes (`pack-info-too-large`).
package enum PackInfo {
    /// The largest `Info.plist` a build writes: `verify` holds at most this much of any one entry (docs/build-output.md,
    /// Bounded), so a build never writes a larger one.
    package static let maximumSize = 1 << 20

    package static func propertyList(id: String, tags: [String], priority: Double?) -> PropertyListValue {
        var values: [String: PropertyListValue] = [
            "CFBundleIdentifier": .string(id),
            "Tags": .array(tags.map(PropertyListValue.string)),
        ]
        if let priority { values["Priority"] = .real(priority) }
        return .dictionary(values)
    }

    /// The size of the binary plist `build` writes for the pack, exactly.
    package static func size(of pack: AssetPack) -> Int {
        propertyList(id: pack.id, tags: pack.tags, priority: pack.priority).binaryData().count
    }

    /// A bound the exact size never exceeds, in one pass over the names: a string takes at most two bytes per UTF-8
    /// byte (UTF-16 for non-ASCII), its marker and length at most 10, its reference and offset at most 8 each; the
    /// header, trailer, keys, containers and priority fit in 256. Only packs near a limit need `size(of:)`.
    package static func sizeBound(of pack: AssetPack) -> Int {
        pack.tags.reduce(256 + 2 * pack.id.utf8.count + 26) { $0 + 2 * $1.utf8.count + 26 }
    }

}
