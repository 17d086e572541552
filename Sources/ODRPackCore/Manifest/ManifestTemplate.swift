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
        /// The folder's tag: `tag(forFolderName:)`, made unique among the folders by `assignTags`.
        package var tag: String

        package init(name: String, files: Int, bytes: Int64, tag: String? = nil) {
            self.name = name
            self.files = files
            self.bytes = bytes
            self.tag = tag ?? ManifestTemplate.tag(forFolderName: name)
        }
    }

    package static let fileName = "odrpack.yml"
    /// Not a bundle id on purpose: `plan` refuses it until it is replaced (manifest-invalid-value).
    package static let bundleIDPlaceholder = "REPLACE-ME: your app's bundle id, e.g. com.example.game"

    /// `resources-root` as the manifest says it (relative to the manifest's folder, or absolute).
    package var resourcesRoot: String
    package var folders: [Folder]
    /// Names under resources-root that a manifest cannot name, relative to it, and why: a name that is not valid UTF-8
    /// (its other bytes escaped, `caf\xe9`), or a folder whose name starts with a byte-order mark (U+FEFF), which YAML
    /// readers drop from a scalar. Listed as skipped instead of failing the scan or writing what plan cannot find.
    package var skipped: [(name: String, why: String)] = []

    static let notUTF8 = "its name is not valid UTF-8, which a manifest cannot name"
    static let byteOrderMark = "its name starts with a byte-order mark (U+FEFF), which YAML readers drop"

    /// The limit profile the manifest names (`--profile`, default `ios`).
    package var profile = "ios"

    /// Reads the top-level folders of `root` (`resourcesRoot` as written, resolved against `directory`), in code-point
    /// order. Names resolution never packs (`.git`, `.svn`, `.hg`, `.bzr`, `CVS`), symbolic links and odrpack build
    /// folders are left out; counts leave out `.DS_Store` and what those names hold, as resolution does.
    /// - Throws: `ODRPackError.manifest` when `root` is no folder; `ODRPackError` when it cannot be read.
    package static func scan(resourcesRoot: String, from directory: String) throws -> ManifestTemplate {
        // An absolute resources-root replaces the folder.
        let root = FilePath(directory).pushing(FilePath(resourcesRoot))
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.string, isDirectory: &isDirectory) else {
            throw ODRPackError.manifest(.noResourcesFolder(resourcesRoot))
        }
        guard isDirectory.boolValue else {
            throw ODRPackError.manifest(.resourcesRootIsFile(resourcesRoot))
        }
        var folders: [Folder] = []
        var skipped: [(name: String, why: String)] = []
        let names = try FolderNames.list(root).sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        for entry in names {
            guard let name = entry.text else {
                skipped.append((entry.escaped, notUTF8))
                continue
            }
            // Only a top-level folder's name is written into the manifest; the names below it are never spelt there.
            guard name.unicodeScalars.first != "\u{FEFF}" else {
                skipped.append((name, byteOrderMark))
                continue
            }
            // A link gets no entry: one that leaves resources-root is an error for an entry that names it (a warning
            // left untagged), and one inside it reaches a folder that has its own entry.
            let path = root.joined(name)
            guard !neverPacked(name),
                SystemCall.status(path, followingLinks: false)?.kind == .directory,
                SystemCall.status(path.joined(BuildFolder.lockFileName), followingLinks: false) == nil
            else { continue }
            var folder = Folder(name: name, files: 0, bytes: 0)
            try count(path, relative: name, into: &folder, skipped: &skipped)
            folders.append(folder)
        }
        var template = ManifestTemplate(resourcesRoot: resourcesRoot, folders: folders)
        template.skipped = skipped
        template.assignTags()
        return template
    }

    /// Counts the regular files under `path` (links not followed; `.DS_Store` and what `neverPacked` names left out, as
    /// resolution does); a name that is not UTF-8 is added to `skipped`, relative to resources-root, and not entered.
    private static func count(
        _ path: FilePath, relative: String, into folder: inout Folder, skipped: inout [(name: String, why: String)]
    ) throws {
        let names = try FolderNames.list(path).sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        for entry in names {
            guard let name = entry.text else {
                skipped.append((RelativePath.joined(relative, entry.escaped), notUTF8))
                continue
            }
            let child = path.joined(name)
            guard !neverPacked(name), let status = SystemCall.status(child, followingLinks: false)
            else { continue }
            switch status.kind {
            case .regular where name != ".DS_Store":
                folder.files += 1
                folder.bytes = folder.bytes.addingReportingOverflow(status.stamp.size).partialValue
            case .directory:
                try count(child, relative: RelativePath.joined(relative, name), into: &folder, skipped: &skipped)
            default: break
            }
        }
    }

    /// Names resolution always leaves out, with everything they hold (docs/manifest.md): the version-control folders.
    static func neverPacked(_ name: String) -> Bool { VersionControl.isFolderName(name) }

    /// A folder's tag: its name lowercased, every letter kept (`Musique Thème` is `musique-thème`), every character
    /// that is not a letter, a digit or `-` made `-` (docs/commands.md#init).
    package static func tag(forFolderName name: String) -> String {
        String(
            name.lowercased().map { character in
                character.isLetter || character.isNumber || character == "-" ? character : "-"
            })
    }

    /// Gives each folder its tag; a tag another folder took already (`Levels/` and `levels/` on a case-sensitive disk)
    /// gets `-2`, `-3`…, so two folders never merge into one pack by accident.
    mutating func assignTags() {
        var taken = Set<String>()
        for index in folders.indices {
            let base = Self.tag(forFolderName: folders[index].name)
            var tag = base
            var number = 2
            while !taken.insert(tag).inserted {
                tag = "\(base)-\(number)"
                number += 1
            }
            folders[index].tag = tag
        }
    }

    /// The manifest text.
    package var yaml: String {
        var out = """
            # odrpack.yml, written by `odrpack init`: one entry per top-level folder of the resources, tagged with its
            # name. Edit the tags (a file with several tags goes in a pack of its own), then run `odrpack plan`.
            # Reference: the tag manifest section of odrpack's docs (docs/manifest.md).
            version: 1
            bundle-id: \(YAMLScalar.doubleQuoted(Self.bundleIDPlaceholder))  # replace with your app's bundle identifier
            profile: \(Self.scalar(profile))  # the store limits checked: \(LimitProfile.names.joined(separator: ", "))
            resources-root: \(Self.scalar(resourcesRoot))

            """
        if folders.isEmpty {
            out += "resources: []  # no folder to tag yet: add entries such as {path: Levels/Level1, tags: [level1]}\n"
        } else {
            out += "resources:\n"
            for folder in folders {
                // `~` alone reads as a home folder, which a path may not name: `./~` is the folder itself.
                let path = folder.name == "~" ? "./~" : folder.name
                out += "  - path: \(Self.scalar(path))  # \(Self.describe(folder))\n"
                out += "    tags: [\(Self.scalar(folder.tag))]\n"
            }
        }
        out += "initial-install: []  # tags downloaded with the app\n"
        // A comment holds every name as YAML lets a stream hold it: the UTF-8 ones escaped as in a quoted scalar, the
        // others already escaped byte by byte.
        for (why, names) in [Self.notUTF8, Self.byteOrderMark].map({ why in (why, skipped.filter { $0.why == why }) })
        where !names.isEmpty {
            let heading = why == Self.notUTF8 ? "names that are not valid UTF-8" : "names that start with U+FEFF"
            out += "# Skipped: \(heading), which a manifest cannot name (rename them to tag them):\n"
            for (name, _) in names {
                out +=
                    "#   \(why == Self.notUTF8 ? name : String(YAMLScalar.doubleQuoted(name).dropFirst().dropLast()))\n"
            }
        }
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
    /// - Throws: `ODRPackError.manifest` when the file exists and `force` is false (exit 2), naming it.
    package func write(to path: String, force: Bool) throws {
        if !force, case .success = LocalFileSystem().status(path, followingLinks: false) {
            throw ODRPackError.manifest(.exists(path))
        }
        try AtomicFile.write(Data(yaml.utf8), to: FilePath(path))
    }
}
