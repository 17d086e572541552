import ODRPackPlatform

/// Which folders under resources-root the manifest's entries can reach: a folder a `path` entry names or lies in,
/// one that holds a `path` entry below it, or one where a glob could match a file at some depth. With
/// `untagged: ignore` nothing else is scanned (docs/manifest.md#untagged-files), so a manifest naming 20 files in a huge tree costs 20 files.
struct EntryReach: Sendable {
    /// Every `path` entry, normalized ("" is the root itself).
    private let paths: Set<PathKey>
    /// Every folder that holds a `path` entry at some depth.
    let entryFolders: Set<PathKey>
    private let globs: [GlobPattern]

    init(manifest: TagManifest) {
        var paths = Set<PathKey>()
        var folders = Set<PathKey>()
        var globs: [GlobPattern] = []
        for entry in manifest.entries {
            switch entry.selector {
            case .path(let path):
                paths.insert(PathKey(path))
                var folder = Substring(path)
                while let parts = folder.splitAtLastSlash() {
                    folder = parts.folder
                    folders.insert(PathKey(String(folder)))
                }
                if !path.isEmpty { folders.insert(PathKey("")) }
            case .glob(let glob):
                if let pattern = GlobPattern(glob) { globs.append(pattern) }
            }
        }
        self.paths = paths
        entryFolders = folders
        self.globs = globs
    }

    /// Whether a folder (its path relative to resources-root) may hold a file some entry tags.
    func mayHoldResources(_ relative: String) -> Bool {
        if paths.contains(PathKey("")) || paths.contains(PathKey(relative)) || entryFolders.contains(PathKey(relative))
        {
            return true
        }
        let components = relative.slashSeparated(omittingEmptySubsequences: false).map(String.init)
        // Inside a named folder: one of its ancestors is a path entry.
        var ancestor = ""
        for component in components.dropLast() {
            ancestor = RelativePath.joined(ancestor, component)
            if paths.contains(PathKey(ancestor)) { return true }
        }
        return globs.contains { $0.couldMatch(filesBelow: components) }
    }

    func mayHoldResources(_ relative: [UInt8]) -> Bool {
        mayHoldResources(String(decoding: relative, as: UTF8.self))
    }
}
