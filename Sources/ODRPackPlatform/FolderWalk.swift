/// The one recursive walk of a folder that is not a resource tree (`FileTreeScanner` reads those, on every core):
/// a pack folder, a written output, an Xcode project's folders. Each folder comes before what it holds, siblings in
/// code-point order of their names, so the same tree always gives the same list. Links are reported, never followed.
package enum FolderWalk {
    package struct Entry: Sendable {
        /// Relative to the walked folder, "/"-separated, as text: a name that is not UTF-8 is shown escaped
        /// (`FilePath.text`), so use `pathBytes` or `file(under:)` to reach it.
        package let path: String
        package let name: String
        package let status: FileStatus
        /// `path` as the file system's bytes, "/"-separated: a name that is not UTF-8 keeps its bytes
        /// (docs/architecture.md#paths), as a zip entry's name does.
        package let pathBytes: [UInt8]

        /// The entry under `root` (the walked folder, or a copy of it), reached by its bytes.
        package func file(under root: FilePath) -> FilePath {
            pathBytes.split(separator: UInt8(ascii: "/")).reduce(root) { $0.joined(name: $1)! }
        }
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
        // Per entry: one path for its `lstat`; the folder is listed as bytes (`FolderNames`), so a name that is not
        // UTF-8 is reached and reported as itself, never as its repaired text (docs/architecture.md#paths).
        func walk(_ folder: FilePath, _ relative: [UInt8]) throws {
            var children: [(key: [UInt8], entry: Entry, path: FilePath)] = []
            for listed in try FolderNames.list(folder) {
                let name = listed.text ?? FilePath.shownText(of: listed.bytes)
                if skipping(name) { continue }
                let path = listed.path(in: folder)
                let status = try SystemCall.requireStatus(path, followingLinks: false, .stat)
                let bytes = relative.isEmpty ? listed.bytes : relative + [UInt8(ascii: "/")] + listed.bytes
                let entry = Entry(
                    path: String(validating: bytes, as: UTF8.self) ?? FilePath.shownText(of: bytes), name: name,
                    status: status, pathBytes: bytes)
                let key =
                    slashedFolders && status.kind == .directory ? listed.bytes + [UInt8(ascii: "/")] : listed.bytes
                children.append((key, entry, path))
            }
            // Code-point order is the order of the UTF-8 bytes; names that are not UTF-8 fall in by their bytes too.
            for child in children.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                try visit(child.entry)
                if child.entry.status.kind == .directory && entering(child.entry) {
                    try walk(child.path, child.entry.pathBytes)
                }
            }
        }
        try walk(root, [])
    }
}
