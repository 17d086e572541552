import Foundation
import ODRPackPlatform

/// One regular file under resources-root with the tags the manifest gives it.
package struct ResolvedResource: Sendable {
    /// Relative to resources-root, `/`-separated: also its path inside a pack.
    package var path: String
    package var size: Int64
    package var stamp: FileStamp
    /// Sorted tags; empty for a file that stays in the app bundle.
    package var tags: [String]
    /// The first manifest entry that tagged the file, for diagnostics that point at the manifest.
    var firstEntry: Int?

    package init(path: String, size: Int64, stamp: FileStamp, tags: [String], firstEntry: Int?) {
        self.path = path
        self.size = size
        self.stamp = stamp
        self.tags = tags
        self.firstEntry = firstEntry
    }
}
