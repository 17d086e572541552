import ODRPackCore

extension BuildState {
    /// What a successful build depended on beyond its packs, and what it printed: when all of it is unchanged, the
    /// next build prints the same again instead of planning (see `UpToDateCheck`).
    struct Replay: Equatable, Sendable {
        /// SHA-256 of the tool, the output settings and the manifest's path and bytes.
        var inputs = ""
        /// resources-root as the manifest names it (absolute, links not resolved); the state's `rootPath` is resolved.
        var rootPath = ""
        /// `FileTree.fingerprint` of resources-root, scanned before the build read any file.
        var treeFingerprint = ""
        /// Output files the build removed, which must still be absent.
        var absent: [String] = []
        var contentBytes: Int64 = 0
        var archiveBytes: Int64 = 0
        var diagnostics: [Diagnostic] = []
        /// The warnings the manifest allowed, written after `diagnostics`.
        var allowed: [Diagnostic] = []
    }
}
