import Foundation
import ODRPackPlatform

/// Writes an imported project as an odrpack.yml that plan, validate and build accept unchanged.
package enum ImportedManifestWriter {
    /// Files the app bundle count should not include: project files and sources.
    static let defaultExcludes = ["**/*.xcodeproj/**", "**/*.xcworkspace/**", "**/xcuserdata/**", "**/*.swift",
                                  "**/*.[hmc]", "**/*.mm", "**/*.cpp", "**/*.xcconfig", "**/*.entitlements"]

    /// - Parameter resourcesRoot: the project folder, relative to the manifest's folder.
    package static func yaml(_ result: XcodeImporter.Result, resourcesRoot: String) -> String {
        func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 { out += String(format: "\\x%02X", scalar.value) } else { out.unicodeScalars.append(scalar) }
                }
            }
            return out + "\""
        }
        func list(_ values: [String]) -> String { "[" + values.map(quoted).joined(separator: ", ") + "]" }

        var out = "# Imported by odrpack import-xcode from \(result.projectName), target \(result.target), configuration \(result.configuration).\n"
        out += "# bundle-id: PRODUCT_BUNDLE_IDENTIFIER of that configuration.\n"
        out += "# resources: ASSET_TAGS of the target's resource files and folder references, assetTagsByRelativePath of its\n"
        out += "#   synchronized folders, and on-demand-resource-tags of asset catalog items (tagged as folders).\n"
        out += "# initial-install: ON_DEMAND_RESOURCES_INITIAL_INSTALL_TAGS; prefetch-order: ON_DEMAND_RESOURCES_PREFETCH_ORDER.\n"
        if !result.notes.isEmpty {
            out += "# Notes:\n"
            for note in result.notes { out += "#   - \(note)\n" }
        }
        out += "version: 1\n"
        out += "bundle-id: \(quoted(result.bundleID))\n"
        out += "resources-root: \(quoted(resourcesRoot))\n"
        out += "resources:\n"
        if result.entries.isEmpty { out += "  []\n" }
        for entry in result.entries {
            out += "  - path: \(quoted(entry.path))   # \(entry.sources.joined(separator: ", "))\n"
            out += "    tags: \(list(entry.tags))\n"
        }
        out += "initial-install: \(list(result.initialInstall))\n"
        out += "prefetch-order: \(list(result.prefetchOrder))\n"
        out += "exclude: \(list(defaultExcludes))\n"
        return out
    }

    /// Writes the manifest beside its final name and renames it into place: never a half-written file.
    package static func write(_ result: XcodeImporter.Result, projectPath: String, to path: String) throws {
        let outputURL = URL(fileURLWithPath: path).standardizedFileURL
        let projectFolder = URL(fileURLWithPath: projectPath).standardizedFileURL.deletingLastPathComponent()
        let text = yaml(result, resourcesRoot: relativePath(from: outputURL.deletingLastPathComponent(), to: projectFolder))
        try AtomicFile.write(Data(text.utf8), to: outputURL.path)
    }

    /// `to` relative to `from`, both folders; "." when they are the same.
    static func relativePath(from: URL, to: URL) -> String {
        let a = from.standardizedFileURL.pathComponents, b = to.standardizedFileURL.pathComponents
        var common = 0
        while common < min(a.count, b.count) && a[common] == b[common] { common += 1 }
        let parts = Array(repeating: "..", count: a.count - common) + b[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
