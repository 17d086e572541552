import Foundation
import ODRPackFormats
import ODRPackPlatform

/// One regular file under resources-root with the tags the manifest gives it.
///
/// A project holds one of these per file, a million at the store's limit, so it is kept to 72 bytes besides its path
/// (docs/build-output.md, Bounded): the source is stored only when an entry's `into` moved the file, the size is the
/// stamp's, the tags are one array shared by every file of the tag set, and entry numbers are 32-bit.
package struct ResolvedResource: Sendable {
    /// The destination, or, for a file an entry's `into` moved, the destination, a NUL and the source (a path
    /// holds no NUL).
    private var paths: String
    package let stamp: FileStamp
    /// Sorted tags; empty for a file that stays in the app bundle. Files with the same tag set share one storage.
    package var tags: [String]
    /// `firstEntry`, or -1 for none.
    private var firstEntryNumber: Int32
    /// Bit 31: `paths` holds a source of its own; the other bits: `placedBy` + 1, 0 for none.
    private var placement: UInt32 = 0

    package init(path: String, source: String? = nil, size: Int64, stamp: FileStamp, tags: [String], firstEntry: Int?) {
        self.paths = path
        var stamp = stamp
        stamp.size = size
        self.stamp = stamp
        self.tags = tags
        self.firstEntryNumber = Self.number(firstEntry)
        if let source, !source.hasSameBytes(as: path) { setPath(path, source: source) }
    }

    /// The file's destination: its path inside the pack and the app bundle, `/`-separated (docs/manifest.md#destinations). Every document
    /// names the file by it.
    package var path: String {
        get { isPlaced ? String(decoding: paths.utf8.prefix { $0 != 0 }, as: UTF8.self) : paths }
        set { setPath(newValue, source: source) }
    }

    /// Where the file is: its path relative to resources-root, which is what is read. Equal to `path` unless an
    /// entry's `into` placed the file elsewhere.
    package var source: String {
        guard isPlaced, let nul = paths.utf8.firstIndex(of: 0) else { return paths }
        return String(decoding: paths.utf8[paths.utf8.index(after: nul)...], as: UTF8.self)
    }

    package var size: Int64 { stamp.size }

    /// Whether an entry's `into` put the file somewhere other than its source path.
    package var isPlaced: Bool { placement & Self.ownSource != 0 }

    /// The first manifest entry that tagged the file, for diagnostics that point at the manifest.
    var firstEntry: Int? {
        get { firstEntryNumber < 0 ? nil : Int(firstEntryNumber) }
        set { firstEntryNumber = Self.number(newValue) }
    }

    /// The entry whose `into` gave the file its destination, for `destination-conflict`.
    var placedBy: Int? {
        get { placement & ~Self.ownSource == 0 ? nil : Int(placement & ~Self.ownSource) - 1 }
        set { placement = placement & Self.ownSource | UInt32(Self.number(newValue) + 1) }
    }

    private static let ownSource: UInt32 = 1 << 31

    private mutating func setPath(_ path: String, source: String) {
        if source.hasSameBytes(as: path) {
            paths = path
            placement &= ~Self.ownSource
        } else {
            paths = path + "\0" + source
            placement |= Self.ownSource
        }
    }

    /// An entry's index as stored, -1 for none; a manifest holds far fewer than 2^30 entries.
    private static func number(_ entry: Int?) -> Int32 { entry.map { Int32(clamping: min($0, 1 << 30)) } ?? -1 }
}
