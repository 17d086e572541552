import Foundation
import ODRPackPlatform

/// The tag manifest (docs/manifest.md) as loaded: every value remembers where it was written.
package struct TagManifest: Sendable {
    /// A value with the manifest location it came from.
    package struct Located<Value: Sendable>: Sendable {
        package let value: Value
        package var location: SourceLocation?

        init(_ value: Value, at location: SourceLocation?) {
            self.value = value
            self.location = location
        }
    }

    /// What an entry selects: a file or folder path, or a glob; both relative to `resources-root`.
    package enum Selector: Equatable, Sendable {
        case path(String)
        case glob(String)
    }

    package struct Entry: Sendable {
        package let selector: Selector
        var selectorLocation: SourceLocation?
        package var tags: [Located<String>]
        /// The folder inside the app bundle (and the pack) where the entry places its files, normalized ("" is the
        /// bundle's root); nil when the entry only adds tags (docs/manifest.md#destinations).
        package var into: String?
        /// The language the entry gives every file it names (`language`), in canonical case; nil when it gives none
        /// (docs/background-assets.md#languages).
        package var language: Located<String>?
        /// Which component of the `path` or `glob` is `{language}`, whose folder names its files' language; nil when
        /// the selector has none (docs/background-assets.md#languages).
        package var languageComponent: Int?
        /// The platforms the entry's files are for (`platforms`), as written; nil for every platform of the manifest
        /// (docs/background-assets.md#platforms).
        package var platforms: [Located<String>]?

        init(selector: Selector, selectorLocation: SourceLocation?, tags: [Located<String>], into: String? = nil) {
            self.selector = selector
            self.selectorLocation = selectorLocation
            self.tags = tags
            self.into = into
        }
    }

    /// What happens to files no entry tags (docs/manifest.md, 3.3).
    package enum UntaggedPolicy: String, Sendable {
        /// They stay in the app and are counted: resources-root is the app's folder.
        case count
        /// Only tagged files matter: nothing else is scanned, read, counted or checked.
        case ignore
    }

    /// The manifest's path as the user named it, used in diagnostics.
    package let displayPath: String
    /// The folder holding the manifest: relative paths in it start there.
    package let directory: FilePath
    package var bundleID: String
    package var resourcesRoot: Located<String>
    package var profile: Located<String>
    package var entries: [Entry]
    package var initialInstall: [Located<String>]
    package var prefetchOrder: [Located<String>]
    package var exclude: [Located<String>]
    package var untagged: UntaggedPolicy = .count
    /// Tags of entries dropped for an error of their own (a path outside resources-root): known tags, which
    /// `tag-unknown` does not report again.
    package var unresolvedEntryTags = Set<String>()
    /// Overrides from `limits`; a nil value turns the limit off.
    var limitOverrides: [LimitProfile.Key: Int64?]
    /// Where each top-level key was written, for diagnostics about the whole project.
    var keyLocations: [String: SourceLocation]
    /// The `background-assets` section (docs/background-assets.md); its defaults when the manifest has none.
    package var backgroundAssets = BackgroundAssetsSettings()
    /// The optional top-level `tags:` list, every tag the project uses (as Xcode's `KnownAssetTags`); nil when the
    /// manifest has none (docs/manifest.md#declared-tags).
    package var declaredTags: [Located<String>]?
    /// The warnings the manifest allows, at the top level and per entry (docs/manifest.md#allowed-warnings).
    package var allow = AllowList()

    init(
        displayPath: String, directory: FilePath, bundleID: String,
        resourcesRoot: Located<String> = .init(".", at: nil), profile: Located<String> = .init("default", at: nil),
        entries: [Entry] = [], initialInstall: [Located<String>] = [], prefetchOrder: [Located<String>] = [],
        exclude: [Located<String>] = [], limitOverrides: [LimitProfile.Key: Int64?] = [:],
        keyLocations: [String: SourceLocation] = [:]
    ) {
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

    /// The folder that holds the resources, absolute, `.` and `..` folded: `resources-root` as written, relative to
    /// the manifest's folder unless it is absolute.
    package var resourcesRootPath: FilePath {
        directory.pushing(FilePath(resourcesRoot.value)).normalized
    }

    /// `resourcesRootPath` as a URL, for the callers in other modules that still read `.path` of it.
    package var resourcesRootURL: URL { URL(fileURLWithPath: resourcesRootPath.string, isDirectory: true) }

    /// The profile's limits with the manifest's overrides applied. Without a profile named on the command line, an ODR
    /// plan checks the manifest's profile and a Background Assets plan the `background-assets` profile (docs/background-assets.md).
    package func limits(profileName: String? = nil, format: PackFormat) -> LimitProfile? {
        let name = profileName ?? (format == .backgroundAssets ? LimitProfile.backgroundAssetsName : self.profile.value)
        guard var profile = LimitProfile.named(name) else { return nil }
        for (key, value) in limitOverrides { profile[key] = value }
        return profile
    }
}
