import ODRPackFormats
import ODRPackPlatform

/// One tile of the report's treemap: a pack, a folder, a file, or a group of small files.
package struct TreemapNode: Equatable, Sendable {
    package let name: String
    package var size: Int64
    /// `initial-install`, `prefetch`, `on-demand`, or a diff status.
    package let group: String
    /// Files stood for by a tile that groups small ones (0 for a single file or a folder).
    var groupedFiles: Int = 0
    package var children: [TreemapNode] = []

    var json: JSONValue {
        var fields: [(String, JSONValue)] = [("n", .string(name)), ("s", .int(size)), ("g", .string(group))]
        if groupedFiles > 0 { fields.append(("k", .int(Int64(groupedFiles)))) }
        if !children.isEmpty { fields.append(("c", .array(children.map(\.json)))) }
        return .object(fields)
    }

    /// Files under a tile (a group counts its files).
    package var fileCount: Int {
        children.isEmpty ? max(groupedFiles, 1) : children.reduce(0) { $0 + $1.fileCount }
    }

    /// A pack's folders and files, biggest first. In each folder the `keep` biggest files have tiles of their own
    /// and the rest share one, so a page of 200,000 files stays small and quick. A pack's files come sorted by
    /// path, so consecutive files mostly share their folder: a path is split into folders only where the folder
    /// changes, and a file's name becomes a string only if it gets a tile of its own.
    static func pack(name: String, group: String, files: [(path: String, size: Int64)], keep: Int) -> TreemapNode {
        final class Folder {
            var folders: [String: Folder] = [:]
            /// Each file's path, where its name starts in it, and its size.
            var files: [(path: String, name: String.Index, size: Int64)] = []
        }
        let root = Folder()
        var current = root
        var currentPath: Substring = ""
        for file in files {
            let slash = file.path.utf8.lastIndex(of: UInt8(ascii: "/"))
            let folderPath = slash.map { file.path[..<$0] } ?? ""
            if !folderPath.utf8.elementsEqual(currentPath.utf8) {
                current = root
                if slash != nil {
                    for part in folderPath.slashSeparated(omittingEmptySubsequences: false) {
                        let key = String(part)
                        if let next = current.folders[key] {
                            current = next
                        } else {
                            let next = Folder()
                            current.folders[key] = next
                            current = next
                        }
                    }
                }
                currentPath = folderPath
            }
            current.files.append(
                (file.path, slash.map { file.path.utf8.index(after: $0) } ?? file.path.startIndex, file.size))
        }
        func node(_ folder: Folder, _ name: String) -> TreemapNode {
            var children = folder.folders.map { node($0.value, $0.key) }
            let files = folder.files.map { (name: $0.path[$0.name...], size: $0.size) }.sorted {
                $0.size != $1.size ? $0.size > $1.size : $0.name < $1.name
            }
            children += files.prefix(keep).map { TreemapNode(name: String($0.name), size: $0.size, group: group) }
            if files.count > keep {
                let rest = files.dropFirst(keep)
                children.append(
                    TreemapNode(
                        name: "\(rest.count) smaller file\(rest.count == 1 ? "" : "s")",
                        size: rest.lazy.map(\.size).saturatingSum, group: group,
                        groupedFiles: rest.count))
            }
            children.sort { ($0.size, $1.name) > ($1.size, $0.name) }
            // A folder that holds only one folder is shown as one tile, `Levels/Level1`, not as a box in a box.
            if children.count == 1, !children[0].children.isEmpty, folder !== root {
                return TreemapNode(
                    name: name.slashJoined(children[0].name), size: children[0].size, group: group,
                    children: children[0].children)
            }
            return TreemapNode(
                name: name, size: children.lazy.map(\.size).saturatingSum, group: group, children: children)
        }
        return node(root, name)
    }
}
