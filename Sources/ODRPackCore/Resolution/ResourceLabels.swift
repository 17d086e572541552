/// What the manifest says about a file besides where it goes: its tags, its language and its platforms. One is shared
/// by every file its entries give the same labels (a million files hold a few of these, docs/performance.md#scale), so
/// a resource keeps one reference to it.
package final class ResourceLabels: Sendable {
    /// Sorted; empty for a file that stays in the app bundle.
    package let tags: [String]
    /// BCP 47 in canonical case; nil when the file is not localized (docs/background-assets.md#languages).
    package let language: String?
    /// In the order iOS, macOS, tvOS, visionOS; nil for every platform of the manifest
    /// (docs/background-assets.md#platforms).
    package let platforms: [String]?

    package init(tags: [String], language: String? = nil, platforms: [String]? = nil) {
        self.tags = tags
        self.language = language
        self.platforms = platforms
    }

    /// The labels of files no entry tags.
    package static let untagged = ResourceLabels(tags: [])

    /// Whether a file with these labels is for `platform` (manifest spelling).
    package func isFor(_ platform: String) -> Bool { platforms?.contains(platform) ?? true }
}
