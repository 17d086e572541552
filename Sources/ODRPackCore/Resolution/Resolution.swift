import ODRPackPlatform

/// The result of resolving a manifest against the file system.
package struct Resolution: Sendable {
    /// Absolute path of resources-root (symbolic links resolved).
    package let rootPath: String
    /// Tagged resources, sorted by path.
    package let resources: [ResolvedResource]
    package let appBundleFiles: Int
    package let appBundleSize: Int64
    /// False with `untagged: ignore`: the untagged files were not looked at, so the counts mean nothing.
    package var countsAppBundle = true
    /// The untagged files (they stay in the app), relative to resources-root in walk order, when they were asked for
    /// (`plan --list-untagged`); nil otherwise, so a project of a million files holds no list it does not print.
    package var untaggedFiles: [String]?
    package var diagnostics: [Diagnostic]
    /// The scanned tree's `FileTree.fingerprint`: what the build's up-to-date record compares.
    package var fingerprint: String?
    /// The untagged files' sizes add up past Int64.max (`appBundleSize` is held there): a `size-overflow`.
    package var appBundleSizeOverflows = false
    /// The manifest's entries with every `{language}` path entry made concrete (docs/background-assets.md#languages),
    /// which entry numbers of the resources refer to; nil when the manifest has no such entry.
    package var expandedEntries: [TagManifest.Entry]?
    /// The bytes the resources' `PathArena` allocated for their paths (docs/performance.md#scale), for tests of memory.
    package var pathBytes = 0

    init(
        rootPath: String, resources: [ResolvedResource], appBundleFiles: Int, appBundleSize: Int64,
        diagnostics: [Diagnostic], fingerprint: String? = nil
    ) {
        self.rootPath = rootPath
        self.resources = resources
        self.appBundleFiles = appBundleFiles
        self.appBundleSize = appBundleSize
        self.diagnostics = diagnostics
        self.fingerprint = fingerprint
    }
}
