import Foundation
import ODRPackPlatform

/// `odrpack init` (docs/commands.md#init): a first tag manifest for a folder of resources, one live `path` entry per
/// top-level folder tagged with its name, so a person starts from their own folders rather than from nothing. What it
/// writes plans as soon as the `bundle-id` placeholder is replaced.
package struct ManifestTemplate: Sendable {
    /// A top-level folder and what it holds.
    package struct Folder: Sendable, Equatable {
        package var name: String
        package var files: Int
        package var bytes: Int64
        package var tag: String { ManifestTemplate.tag(forFolderName: name) }
    }

    package static let fileName = "odrpack.yml"
    /// Not a bundle id on purpose: `plan` refuses it until it is replaced (manifest-invalid-value).
    package static let bundleIDPlaceholder = "REPLACE-ME: your app's bundle id, e.g. com.example.game"

    /// `resources-root` as the manifest says it (relative to the manifest's folder, or absolute).
    package var resourcesRoot: String
    package var folders: [Folder]

    /// Reads the top-level folders of `root` (`resourcesRoot` as written, resolved against `directory`), in code-point
    /// order. Names resolution never packs (`.git`, `.svn`, `.hg`, `.bzr`, `CVS`), symbolic links and odrpack build
    /// folders are left out; counts leave out `.DS_Store` and what those names hold, as resolution does.
    /// - Throws: `ODRPackError.unusableInput` when `root` is no folder; `ODRPackError` when it cannot be read.
    package static func scan(resourcesRoot: String, from directory: String) throws -> ManifestTemplate {
        let root = resourcesRoot.hasPrefix("/") ? resourcesRoot : directory + "/" + resourcesRoot
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw ODRPackError.unusableInput("no folder '\(resourcesRoot)': pass the folder that holds the resources")
        }
        guard isDirectory.boolValue else {
            throw ODRPackError.unusableInput(
                "'\(resourcesRoot)' is a file: pass the folder that holds the resources (default: this folder)")
        }
        var folders: [Folder] = []
        for entry in try FolderWalk.entries(under: root, entering: { _ in false }) {
            // A link gets no entry: one that leaves resources-root is an error for an entry that names it (a warning
            // left untagged), and one inside it reaches a folder that has its own entry.
            guard !neverPacked.contains(entry.name), entry.status.kind != .symbolicLink else { continue }
            let path = root + "/" + entry.name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
                !FileManager.default.fileExists(atPath: path + "/" + BuildFolder.lockFileName)
            else { continue }
            var folder = Folder(name: entry.name, files: 0, bytes: 0)
            let inside = try FolderWalk.entries(under: path, skipping: { neverPacked.contains($0) })
            for file in inside where file.status.kind == .regular && file.name != ".DS_Store" {
                folder.files += 1
                folder.bytes = folder.bytes.addingReportingOverflow(file.status.stamp.size).partialValue
            }
            folders.append(folder)
        }
        return ManifestTemplate(resourcesRoot: resourcesRoot, folders: folders)
    }

    /// Names resolution always leaves out, with everything they hold (docs/manifest.md).
    static let neverPacked: Set<String> = [".git", ".svn", ".hg", ".bzr", "CVS"]

    /// A folder's tag: its name lowercased, every character outside `a-z`, `0-9` and `-` made `-`.
    package static func tag(forFolderName name: String) -> String {
        String(
            name.lowercased().map { character in
                character.isASCII && (character.isLetter || character.isNumber || character == "-") ? character : "-"
            })
    }

    /// The manifest text.
    package var yaml: String {
        var out = """
            # odrpack.yml, written by `odrpack init`: one entry per top-level folder of the resources, tagged with its
            # name. Edit the tags (a file with several tags goes in a pack of its own), then run `odrpack plan`.
            # Reference: the tag manifest section of odrpack's docs (docs/manifest.md).
            version: 1
            bundle-id: \(YAMLScalar.doubleQuoted(Self.bundleIDPlaceholder))  # replace with your app's bundle identifier
            resources-root: \(Self.scalar(resourcesRoot))

            """
        if folders.isEmpty {
            out += "resources: []  # no folder to tag yet: add entries such as {path: Levels/Level1, tags: [level1]}\n"
        } else {
            out += "resources:\n"
            for folder in folders {
                out += "  - path: \(Self.scalar(folder.name))  # \(Self.describe(folder))\n"
                out += "    tags: [\(Self.scalar(folder.tag))]\n"
            }
        }
        out += "initial-install: []  # tags downloaded with the app\n"
        return out
    }

    /// `12 files, 4,213,000 bytes (4.2 MB)`
    static func describe(_ folder: Folder) -> String {
        let files = "\(folder.files) file\(folder.files == 1 ? "" : "s")"
        let bytes = "\(grouped(folder.bytes)) byte\(folder.bytes == 1 ? "" : "s")"
        return folder.bytes < 1000 ? "\(files), \(bytes)" : "\(files), \(bytes) (\(ByteCount.format(folder.bytes)))"
    }

    /// `4,213,000`: digits in groups of three, whatever the locale.
    static func grouped(_ value: Int64) -> String {
        let digits = String(value)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 && digit != "-" { out += "," }
            out.append(digit)
        }
        return out
    }

    /// A plain YAML scalar when it reads back as the same string, else a double-quoted one.
    static func scalar(_ text: String) -> String {
        let plainCharacters = text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./".unicodeScalars.contains($0))
        }
        let first = text.unicodeScalars.first
        let special: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"]
        guard plainCharacters, let first, first.properties.isAlphabetic || first == "_" || first == "/" || text == ".",
            !special.contains(text.lowercased())
        else { return YAMLScalar.doubleQuoted(text) }
        return text
    }

    /// Writes `yaml` to `path`, whole or not at all.
    /// - Throws: `ODRPackError.unusableInput` when the file exists and `force` is false (exit 2), naming it.
    package func write(to path: String, force: Bool) throws {
        if !force, case .success = LocalFileSystem().status(path, followingLinks: false) {
            throw ODRPackError.unusableInput("'\(path)' exists: pass --force to overwrite it")
        }
        try AtomicFile.write(Data(yaml.utf8), to: path)
    }
}
