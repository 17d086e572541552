import ODRPackPlatform

extension InputRoot {
    /// Fails unless the manifest and its resources-root lie inside the folder (docs/commands.md#input-root), before
    /// anything under resources-root is read. Inside it, the resolution keeps every file there: a link that leaves
    /// resources-root is the error `path-outside-root` (docs/manifest.md#files-and-links).
    /// A manifest that cannot be read is left to the planner, which says why.
    /// - Throws: `ODRPackError.inputRoot` naming where the manifest or resources-root leads.
    package func check(manifestPath: String) throws {
        guard let manifestFile = FilePath(checking: manifestPath) else { return }
        try check(
            manifestFile, "the manifest '\(manifestPath)'",
            fix: "pass a manifest inside it (Bazel: the rule's manifest)")
        guard let manifest = try? ManifestLoader().load(path: manifestPath).manifest else { return }
        try check(
            manifest.resourcesRootPath, "resources-root '\(manifest.resourcesRoot.value)'",
            fix:
                """
                make resources-root a relative path to a folder inside it (Bazel: in the manifest's package, its files \
                in srcs)
                """)
    }
}
