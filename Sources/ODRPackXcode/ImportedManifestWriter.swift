import Foundation
import ODRPackCore
import ODRPackPlatform

/// Writes an imported project as an odrpack.yml that plan, validate and build accept unchanged (docs/xcode.md).
package enum ImportedManifestWriter {
    /// Text for a comment: every line break (`\n`, `\r`, U+0085, U+2028, U+2029) and control character becomes a
    /// space, so a name pasted from the project never breaks the YAML.
    static func comment(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x85 || scalar.value == 0x2028
                        || scalar.value == 0x2029 ? " " : scalar
                }))
    }

    /// - Parameter resourcesRoot: resources-root relative to the manifest's folder.
    package static func yaml(_ result: XcodeImporter.Result, resourcesRoot: String) -> String {
        func list(_ values: [String]) -> String {
            "[" + values.map(YAMLScalar.doubleQuoted).joined(separator: ", ") + "]"
        }

        var out =
            """
            # Imported by odrpack import-xcode from \(comment(result.projectName)), target \(comment(result.target)), \
            configuration \(comment(result.configuration)).\n
            """
        out += "# bundle-id: PRODUCT_BUNDLE_IDENTIFIER of that configuration; profile: its SDKROOT.\n"
        out +=
            """
            # resources: ASSET_TAGS of the target's resource files and folder references, assetTagsByRelativePath of \
            its\n
            """
        out += "#   synchronized folders, and on-demand-resource-tags of asset catalog items (tagged as folders).\n"
        out +=
            "#   'into' puts each file where Xcode's Copy Bundle Resources does; catalog items keep their raw paths.\n"
        out +=
            """
            # initial-install: ON_DEMAND_RESOURCES_INITIAL_INSTALL_TAGS; prefetch-order: \
            ON_DEMAND_RESOURCES_PREFETCH_ORDER.\n
            """
        if !result.notes.isEmpty {
            out += "# Notes:\n"
            for note in result.notes { out += "#   - \(comment(note))\n" }
        }
        out += "version: 1\n"
        out += "bundle-id: \(YAMLScalar.doubleQuoted(result.bundleID))\n"
        if let profile = result.profile { out += "profile: \(profile)\n" }
        out += "resources-root: \(YAMLScalar.doubleQuoted(resourcesRoot))\n"
        out += "untagged: ignore\n"
        out += "resources:\n"
        if result.entries.isEmpty { out += "  []\n" }
        for entry in result.entries {
            let key =
                entry.glob.map { "glob: \(YAMLScalar.doubleQuoted(XcodeImporter.escapedGlob(entry.path) + $0))" }
                ?? "path: \(YAMLScalar.doubleQuoted(entry.path))"
            out += "  - \(key)   # \(comment(entry.sources.joined(separator: ", ")))\n"
            out += "    tags: \(list(entry.tags))\n"
            if let into = entry.into { out += "    into: \(YAMLScalar.doubleQuoted(into.isEmpty ? "." : into))\n" }
        }
        out += "initial-install: \(list(result.initialInstall))\n"
        out += "prefetch-order: \(list(result.prefetchOrder))\n"
        if !result.excludes.isEmpty { out += "exclude: \(list(result.excludes))\n" }
        return out
    }

    /// Writes the manifest where `target` says (docs/commands.md#scripts): a regular file beside its final name and
    /// renamed into place (never a half-written file), standard output or a pipe in place. resources-root is relative
    /// to the manifest's folder, or to the current folder for output that is no file of its own (`-`, `/dev/stdout`):
    /// that is where the reader of the stream stands.
    /// - Throws: exit 2 when a regular file exists and `force` is false (a stream never needs `--force`).
    package static func write(_ result: XcodeImporter.Result, to target: OutputTarget, force: Bool) throws {
        let base: String
        if let path = target.file?.string {
            let output = XcodeProject.absolutePath(path)
            if !force, case .success = LocalFileSystem().status(output.string, followingLinks: false) {
                throw ODRPackError.xcode(.outputExists(path))
            }
            base = output.removingLastComponent().string
        } else {
            base = XcodeProject.absolutePath(FileManager.default.currentDirectoryPath).string
        }
        let root = XcodeProject.relative(XcodeProject.normalized(result.resourcesRoot.string), from: base)
        try target.write(yaml(result, resourcesRoot: root.isEmpty ? "." : root))
    }
}
