import Foundation

/// The one recursive walk of a folder that is not a resource tree (`FileTreeScanner` reads those, on every core):
/// a pack folder, a written output, an Xcode project's folders. Each folder comes before what it holds, siblings in
/// code-point order of their names, so the same tree always gives the same list. Links are reported, never followed.
package enum FolderWalk {
    package struct Entry: Sendable {
        /// Relative to the walked folder, "/"-separated.
        package let path: String
        package let name: String
        package let status: FileStatus
    }

    /// Every entry under `root`, in the order `walk` visits them.
    /// - Parameters:
    ///   - slashedFolders: order a folder's name as if it ended with "/" (a zip's entry order, docs/build-output.md).
    ///   - skipping: names to leave out, with all they hold.
    ///   - entering: whether to walk into a folder that is reported.
    /// - Throws: `ODRPackError` when a folder cannot be listed or an entry cannot be `lstat`ed.
    package static func entries(
        under root: FilePath, slashedFolders: Bool = false, skipping: (String) -> Bool = { _ in false },
        entering: (Entry) -> Bool = { _ in true }
    ) throws -> [Entry] {
        var entries: [Entry] = []
        try walk(under: root, slashedFolders: slashedFolders, skipping: skipping, entering: entering) {
            entries.append($0)
        }
        return entries
    }

    /// Visits every entry under `root` as it goes, depth first: a folder, then what it holds, siblings sorted by name
    /// (with `slashedFolders`, the order of the entries' paths by their bytes, folders as "name/"). Only the folders on
    /// the way down are held, each with its sorted children, never the whole tree: an IPA of a million files zips as
    /// it walks. The parameters and errors are those of `entries`; an error `visit` throws ends the walk.
    package static func walk(
        under root: FilePath, slashedFolders: Bool = false, skipping: (String) -> Bool = { _ in false },
        entering: (Entry) -> Bool = { _ in true }, _ visit: (Entry) throws -> Void
    ) throws {
        // Per entry: one path for its `lstat`, as the text join was; its relative path stays text (an entry name).
        func walk(_ relative: String) throws {
            let folder = root.joined(relative)
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder.string)
            } catch {
                throw ODRPackError.fileOperation("cannot list '\(folder.text)': \(error.localizedDescription)")
            }
            var children: [(key: String, entry: Entry)] = []
            for name in names where !skipping(name) {
                let path = relative.isEmpty ? name : relative.slashJoined(name)
                let status = try SystemCall.requireStatus(
                    folder.joined(name), followingLinks: false, "cannot stat '\(folder.text)/\(name)'")
                let key = slashedFolders && status.kind == .directory ? name + "/" : name
                children.append((key, Entry(path: path, name: name, status: status)))
            }
            for child in children.sorted(by: { $0.key.precedesByCodePoint($1.key) }) {
                try visit(child.entry)
                if child.entry.status.kind == .directory && entering(child.entry) { try walk(child.entry.path) }
            }
        }
        try walk("")
    }
}
