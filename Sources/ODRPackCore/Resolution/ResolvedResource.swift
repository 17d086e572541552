import Foundation
import ODRPackFormats
import ODRPackPlatform

/// One regular file under resources-root with the tags the manifest gives it.
package struct ResolvedResource: Sendable {
    /// The file's destination: its path inside the pack and the app bundle, `/`-separated (docs/manifest.md#destinations). Every document
    /// names the file by it.
    package var path: String
    /// Where the file is: its path relative to resources-root, which is what is read. Equal to `path` unless an
    /// entry's `into` placed the file elsewhere.
    package let source: String
    package var size: Int64
    package let stamp: FileStamp
    /// Sorted tags; empty for a file that stays in the app bundle.
    package var tags: [String]
    /// The first manifest entry that tagged the file, for diagnostics that point at the manifest.
    var firstEntry: Int?
    /// The entry whose `into` gave the file its destination, for `destination-conflict`.
    var placedBy: Int?

    package init(path: String, source: String? = nil, size: Int64, stamp: FileStamp, tags: [String], firstEntry: Int?) {
        self.path = path
        self.source = source ?? path
        self.size = size
        self.stamp = stamp
        self.tags = tags
        self.firstEntry = firstEntry
    }

    /// Whether an entry's `into` put the file somewhere other than its source path.
    package var isPlaced: Bool { !source.hasSameBytes(as: path) }
}
