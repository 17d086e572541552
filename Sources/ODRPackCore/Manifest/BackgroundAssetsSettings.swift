/// The manifest's `background-assets` section (docs/background-assets.md), as written; `platforms` nil means the profile's default.
package struct BackgroundAssetsSettings: Sendable, Equatable {
    package enum Hosting: String, CaseIterable, Sendable {
        /// App Store Connect hosts the packs.
        case apple
        /// The developer's own web server hosts them (`site/`).
        case `self`
    }

    package static let keys = ["hosting", "platforms", "events", "app-group", "url-prefix"]
    static let platformNames = ["iOS", "tvOS", "macOS", "visionOS"]
    static let eventNames = ["firstInstallation", "subsequentUpdate"]

    package var hosting: Hosting = .apple
    package var platforms: [String]?
    /// `installationEventTypes` of essential and prefetch packs.
    package var events: [String] = BackgroundAssetsSettings.eventNames
    package var appGroup: String?
    /// `hosting: self`: where `site/` is served from, so CI need not repeat `--url-prefix` (which wins over it).
    package var urlPrefix: String?

    package init() {}

    /// The platforms a pack is for: as written, else `[tvOS]` for profile tvos and `[iOS]` for every other.
    package func platforms(profile: String) -> [String] {
        platforms ?? (profile == "tvos" ? ["tvOS"] : ["iOS"])
    }
}
