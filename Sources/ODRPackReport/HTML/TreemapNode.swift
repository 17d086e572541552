import ODRPackFormats
/// One tile of the report's treemap: a pack, a folder, a file, or a group of small files.
package struct TreemapNode: Equatable, Sendable {
    package var name: String
    package var size: Int64
    /// `initial-install`, `prefetch`, `on-demand`, or a diff status.
    package var group: String
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
    /// and the rest share one, so a page of 200,000 files stays small and quick.
    static func pack(name: String, group: String, files: [(path: String, size: Int64)], keep: Int) -> TreemapNode {
        final class Folder {
            var folders: [String: Folder] = [:]
            var files: [(String, Int64)] = []
        }
        let root = Folder()
        for file in files {
            var folder = root
            let parts = file.path.split(separator: "/", omittingEmptySubsequences: false)
            for part in parts.dropLast() {
                let key = String(part)
                if let next = folder.folders[key] { folder = next } else {
                    let next = Folder()
                    folder.folders[key] = next
                    folder = next
                }
            }
            folder.files.append((String(parts.last ?? ""), file.size))
        }
        func node(_ folder: Folder, _ name: String) -> TreemapNode {
            var children = folder.folders.map { node($0.value, $0.key) }
            let files = folder.files.sorted { ($0.1, $1.0) > ($1.1, $0.0) }
            children += files.prefix(keep).map { TreemapNode(name: $0.0, size: $0.1, group: group) }
            if files.count > keep {
                let rest = files.dropFirst(keep)
                children.append(TreemapNode(name: "\(rest.count) smaller files", size: rest.lazy.map(\.1).saturatingSum, group: group,
                                            groupedFiles: rest.count))
            }
            children.sort { ($0.size, $1.name) > ($1.size, $0.name) }
            // A folder that holds only one folder is shown as one tile, `Levels/Level1`, not as a box in a box.
            if children.count == 1, !children[0].children.isEmpty, folder !== root {
                return TreemapNode(name: name + "/" + children[0].name, size: children[0].size, group: group,
                                   children: children[0].children)
            }
            return TreemapNode(name: name, size: children.lazy.map(\.size).saturatingSum, group: group, children: children)
        }
        return node(root, name)
    }
}
