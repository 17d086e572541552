import ODRPackBuildFormat

/// A platform as the manifest spells it (`iOS`, `macOS`, `tvOS`, `visionOS`) and as App Store Connect does (`IOS`,
/// `MAC_OS`, `TV_OS`, `VISION_OS`: its Platform enum), in the order iOS, macOS, tvOS, visionOS that submissions and
/// lists follow (docs/store.md#submit).
struct StorePlatform: Sendable, Hashable, Comparable {
    static let all: [StorePlatform] = [
        StorePlatform(name: "iOS", value: "IOS"), StorePlatform(name: "macOS", value: "MAC_OS"),
        StorePlatform(name: "tvOS", value: "TV_OS"), StorePlatform(name: "visionOS", value: "VISION_OS"),
    ]

    /// The manifest's spelling.
    var name: String
    /// App Store Connect's value.
    var value: String

    private var rank: Int { Self.all.firstIndex(of: self) ?? Self.all.count }

    static func < (lhs: StorePlatform, rhs: StorePlatform) -> Bool { lhs.rank < rhs.rank }

    /// The platform a manifest names, in any case (`tvos`, `TVOS`), or App Store Connect's value.
    static func named(_ text: String) -> StorePlatform? {
        all.first { $0.name.lowercased() == text.lowercased() || $0.value == text }
    }

    /// The platforms a pack of `manifest` is for, in order: its own list, else every platform of the build's
    /// `backgroundAssets.platforms` (docs/background-assets.md#platforms). A name no platform has is left out.
    static func of(_ pack: BuildManifest.Pack, in manifest: BuildManifest) -> [StorePlatform] {
        let names = pack.platforms ?? manifest.backgroundAssets?.platforms ?? []
        return Array(Set(names.compactMap(named))).sorted()
    }

    /// App Store Connect's values, in order; unknown ones after, as given.
    static func values(_ given: [String]) -> [String] {
        let known = Set(given.compactMap(named)).sorted().map(\.value)
        return known + given.filter { named($0) == nil }.sorted()
    }
}
