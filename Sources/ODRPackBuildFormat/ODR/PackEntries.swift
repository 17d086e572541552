import ODRPackCore
import ODRPackPlatform

/// A pack's content in archive order (docs/build-output.md): Info.plist, its resources, and a folder entry for every
/// folder, every folder before what it contains and everything else in code-point order of the path.
///
/// Held as 4 bytes an entry, a position among the pack's files (which are views into the resolution), a folder or
/// Info.plist: a pack of 50,000 files is written from 200 KB of entries, not from 50,000 `PackEntry` values with
/// strings of their own (docs/performance.md#scale). Each `PackEntry` is made when it is read.
package struct PackEntries: RandomAccessCollection {
    private let files: PackFiles
    /// Each file's digest when the cache vouches for it, by position among the files; may be shorter (empty: none).
    private let known: [FileDigest?]
    private let rootPath: String
    private let infoPlist: [UInt8]
    /// The folder entries' names ("a/b/"), in order.
    private let folders: [String]
    /// A file's position, `folderMark` | a folder's number, or `infoMark`.
    private let order: [UInt32]

    private static let folderMark: UInt32 = 1 << 31
    private static let infoMark = UInt32.max

    /// - Parameter known: each file's digest when the cache vouches for it; an empty list knows none.
    package init(of pack: AssetPack, infoPlist: [UInt8], rootPath: String, known: [FileDigest?]) {
        files = pack.files
        self.known = known
        self.rootPath = rootPath
        self.infoPlist = infoPlist
        var ordering = Ordering(capacity: files.count + Self.folderCount(of: files) + 1)
        for (index, file) in files.enumerated() {
            file.withPath { path in
                ordering.enterFolder(of: path)
                ordering.append(UInt32(index), name: path)
            }
        }
        (order, folders) = ordering.finish()
    }

    /// How many folder entries the files make at most (each change of folder counts its depth): a first pass, so that
    /// the entries are allocated once at their size.
    private static func folderCount(of files: PackFiles) -> Int {
        var count = 0
        var last: [UInt8] = []
        for file in files {
            file.withPath { path in
                let folder = UnsafeRawBufferPointer(rebasing: path[..<(path.lastIndex(of: UInt8(ascii: "/")) ?? 0)])
                if !last.withUnsafeBytes({ $0.hasSameBytes(as: folder) }) {
                    count += folder.reduce(into: 1) { if $1 == UInt8(ascii: "/") { $0 += 1 } }
                    last = Array(folder)
                }
            }
        }
        return count
    }

    /// The entry order as the files come in path order: each file's folder entries (those not open yet) before it,
    /// and Info.plist where its name falls. Kept apart from `init` because it carries the walk's state: the folders
    /// open now, as names and as the bytes of the last file's folder.
    private struct Ordering {
        private(set) var order: [UInt32] = []
        private(set) var folders: [String] = []
        private var openFolders: [Substring] = []
        /// The bytes before the last file's last slash, and whether it had one: the folder open now.
        private var openBytes: [UInt8] = []
        private var openIsFolder = false
        private var infoAdded = false
        private let info = Array(PackEntry.infoPlistName.utf8)

        init(capacity: Int) { order.reserveCapacity(capacity) }

        /// Appends an entry named `name`, after Info.plist when that name comes first.
        mutating func append(_ value: UInt32, name: UnsafeRawBufferPointer) {
            if !infoAdded && info.withUnsafeBytes({ $0.precedesByCodePoint(name) }) {
                order.append(PackEntries.infoMark)
                infoAdded = true
            }
            order.append(value)
        }

        /// Opens the folders of the file at `path` that are not open yet, each an entry ("a/", "a/b/").
        mutating func enterFolder(of path: UnsafeRawBufferPointer) {
            let slash = path.lastIndex(of: UInt8(ascii: "/"))
            let folder = UnsafeRawBufferPointer(rebasing: path[..<(slash ?? 0)])
            // Files of one folder come together: only a change of folder compares its components.
            guard (slash != nil) != openIsFolder || !openBytes.withUnsafeBytes({ $0.hasSameBytes(as: folder) }) else {
                return
            }
            let name = String(decoding: folder, as: UTF8.self)
            let parts = slash == nil ? [] : name.slashSeparated(omittingEmptySubsequences: false)
            var common = 0
            while common < Swift.min(parts.count, openFolders.count)
                && parts[common].utf8.elementsEqual(openFolders[common].utf8)
            { common += 1 }
            openFolders.removeSubrange(common...)
            for depth in common..<parts.count {
                openFolders.append(parts[depth])
                let folderName = openFolders.joined(separator: "/") + "/"
                var bytes = folderName
                bytes.withUTF8 {
                    append(PackEntries.folderMark | UInt32(folders.count), name: UnsafeRawBufferPointer($0))
                }
                folders.append(folderName)
            }
            openBytes = Array(folder)
            openIsFolder = slash != nil
        }

        /// The order, with Info.plist last when no name came after it, and the folder entries' names.
        mutating func finish() -> (order: [UInt32], folders: [String]) {
            if !infoAdded { order.append(PackEntries.infoMark) }
            return (order, folders)
        }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { order.count }

    package subscript(position: Int) -> PackEntry {
        let value = order[position]
        if value == Self.infoMark { return PackEntry(name: PackEntry.infoPlistName, content: .bytes(infoPlist)) }
        if value & Self.folderMark != 0 {
            return PackEntry(name: folders[Int(value & ~Self.folderMark)], content: .folder)
        }
        let index = Int(value)
        let file = files[index]
        let name = file.path
        return PackEntry(
            name: name,
            content: .file(
                location: PackEntry.Location(folder: rootPath, relative: file.isPlaced ? file.source : name),
                size: file.size, stamp: file.stamp, known: index < known.count ? known[index] : nil))
    }

    /// Whether the entry at `position` is one of the pack's files (not a folder or Info.plist).
    package func isFile(at position: Int) -> Bool { order[position] & Self.folderMark == 0 }

    /// Each entry's uncompressed size, in order, without making the entries.
    package var sizes: some Sequence<Int64> {
        order.lazy.map { value in
            value == Self.infoMark
                ? Int64(infoPlist.count) : value & Self.folderMark != 0 ? 0 : files[Int(value)].size
        }
    }
}
