import ODRPackPlatform

/// The store's limits a project is checked against (docs/manifest.md#limits); `nil` means no limit.
package struct LimitProfile: Equatable, Sendable {
    package enum Key: String, CaseIterable, Sendable {
        case maxPackSize = "max-pack-size"
        case maxTagSize = "max-tag-size"
        case recommendedSize = "recommended-size"
        case maxPackCount = "max-pack-count"
        case maxInitialInstallSize = "max-initial-install-size"
        case maxInitialPrefetchSize = "max-initial-prefetch-size"
        case maxTotalSize = "max-total-size"

        /// `max-pack-count` counts packs; every other key is a byte size.
        package var isCount: Bool { self == .maxPackCount }
    }

    package let name: String
    package var values: [Key: Int64]

    package subscript(key: Key) -> Int64? {
        get { values[key] }
        set { values[key] = newValue }
    }

    package static let names = ["default", "ios", "ios18", "tvos", backgroundAssetsName]
    /// What `--format background-assets` checks (docs/background-assets.md): App Store Connect's 100 asset pack ids and 200 GB per app.
    static let backgroundAssetsName = "background-assets"

    /// A profile named on the command line: one of `names`, else a bad command line (exit 64) saying which exist.
    package static func check(commandLineName name: String?) throws {
        guard let name, named(name) == nil else { return }
        let hint = Suggestion.closest(to: name, in: names).map { " (did you mean '\($0)'?)" } ?? ""
        throw ODRPackError.usage("unknown profile '\(name)'\(hint): use one of \(names.joined(separator: ", "))")
    }

    package static func named(_ name: String) -> LimitProfile? {
        let MB: Int64 = 1_000_000
        let GB: Int64 = 1_000_000_000
        switch name {
        case "default":
            return LimitProfile(
                name: name,
                values: [
                    .maxPackSize: 512 * MB, .maxTagSize: 512 * MB, .recommendedSize: 64 * MB, .maxPackCount: 1000,
                    .maxInitialPrefetchSize: 2 * GB, .maxTotalSize: 20 * GB,
                ])
        case "ios", "tvos":
            return LimitProfile(
                name: name,
                values: [
                    .maxPackSize: 512 * MB, .maxTagSize: 512 * MB, .recommendedSize: 64 * MB, .maxPackCount: 1000,
                    .maxInitialInstallSize: 2 * GB, .maxInitialPrefetchSize: 4 * GB, .maxTotalSize: 20 * GB,
                ])
        case "ios18":
            return LimitProfile(
                name: name,
                values: [
                    .maxPackSize: 8 * GB, .maxTagSize: 8 * GB, .recommendedSize: 64 * MB, .maxPackCount: 1000,
                    .maxTotalSize: 70 * GB,
                ])
        case backgroundAssetsName:
            return LimitProfile(name: name, values: [.maxPackCount: 100, .maxTotalSize: 200 * GB])
        default:
            return nil
        }
    }
}
