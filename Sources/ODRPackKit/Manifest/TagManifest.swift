import Foundation

/// The tag manifest (SPEC section 2) as loaded: every value remembers where it was written.
public struct TagManifest: Sendable {
    /// A value with the manifest location it came from.
    public struct Located<Value: Sendable>: Sendable {
        public var value: Value
        public var location: SourceLocation?

        public init(_ value: Value, at location: SourceLocation?) {
            self.value = value
            self.location = location
        }
    }

    /// What an entry selects: a file or folder path, or a glob; both relative to `resources-root`.
    public enum Selector: Equatable, Sendable {
        case path(String)
        case glob(String)
    }

    public struct Entry: Sendable {
        public var selector: Selector
        public var selectorLocation: SourceLocation?
        public var tags: [Located<String>]

        public init(selector: Selector, selectorLocation: SourceLocation?, tags: [Located<String>]) {
            self.selector = selector
            self.selectorLocation = selectorLocation
            self.tags = tags
        }
    }

    /// The manifest's path as the user named it, used in diagnostics.
    public var displayPath: String
    /// The folder holding the manifest: relative paths in it start there.
    public var directory: URL
    public var bundleID: String
    public var resourcesRoot: Located<String>
    public var profile: Located<String>
    public var entries: [Entry]
    public var initialInstall: [Located<String>]
    public var prefetchOrder: [Located<String>]
    public var exclude: [Located<String>]
    /// Overrides from `limits`; a nil value turns the limit off.
    public var limitOverrides: [LimitProfile.Key: Int64?]
    /// Where each top-level key was written, for diagnostics about the whole project.
    public var keyLocations: [String: SourceLocation]
    /// The `background-assets` section (SPEC 12); its defaults when the manifest has none.
    public var backgroundAssets = BackgroundAssetsSettings()

    public init(displayPath: String, directory: URL, bundleID: String,
                resourcesRoot: Located<String> = .init(".", at: nil), profile: Located<String> = .init("default", at: nil),
                entries: [Entry] = [], initialInstall: [Located<String>] = [], prefetchOrder: [Located<String>] = [],
                exclude: [Located<String>] = [], limitOverrides: [LimitProfile.Key: Int64?] = [:],
                keyLocations: [String: SourceLocation] = [:]) {
        self.displayPath = displayPath
        self.directory = directory
        self.bundleID = bundleID
        self.resourcesRoot = resourcesRoot
        self.profile = profile
        self.entries = entries
        self.initialInstall = initialInstall
        self.prefetchOrder = prefetchOrder
        self.exclude = exclude
        self.limitOverrides = limitOverrides
        self.keyLocations = keyLocations
    }

    /// The folder that holds the resources, as an absolute URL.
    public var resourcesRootURL: URL {
        let root = resourcesRoot.value
        if root.hasPrefix("/") { return URL(fileURLWithPath: root, isDirectory: true).standardizedFileURL }
        return directory.appendingPathComponent(root, isDirectory: true).standardizedFileURL
    }

    /// The profile's limits with the manifest's overrides applied. Without a profile named on the command line, an ODR
    /// plan checks the manifest's profile and a Background Assets plan the `background-assets` profile (SPEC 12).
    public func limits(profileName: String? = nil, format: PackFormat = .odr) -> LimitProfile? {
        let name = profileName ?? (format == .backgroundAssets ? LimitProfile.backgroundAssetsName : self.profile.value)
        guard var profile = LimitProfile.named(name) else { return nil }
        for (key, value) in limitOverrides { profile[key] = value }
        return profile
    }
}
