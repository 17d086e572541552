/// The manifest's `background-assets` section (SPEC 12), as written; `platforms` nil means the profile's default.
public struct BackgroundAssetsSettings: Sendable, Equatable {
    public enum Hosting: String, CaseIterable, Sendable {
        /// App Store Connect hosts the packs.
        case apple
        /// The developer's own web server hosts them (`site/`).
        case `self`
    }

    public static let keys = ["hosting", "platforms", "events", "app-group"]
    public static let platformNames = ["iOS", "tvOS", "macOS", "visionOS"]
    public static let eventNames = ["firstInstallation", "subsequentUpdate"]

    public var hosting: Hosting = .apple
    public var platforms: [String]?
    /// `installationEventTypes` of essential and prefetch packs.
    public var events: [String] = BackgroundAssetsSettings.eventNames
    public var appGroup: String?

    public init() {}

    /// The platforms a pack is for: as written, else `[tvOS]` for profile tvos and `[iOS]` for every other.
    public func platforms(profile: String) -> [String] {
        platforms ?? (profile == "tvos" ? ["tvOS"] : ["iOS"])
    }
}
