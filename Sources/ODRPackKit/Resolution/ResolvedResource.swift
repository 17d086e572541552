import Foundation

/// One regular file under resources-root with the tags the manifest gives it.
public struct ResolvedResource: Sendable {
    /// Relative to resources-root, `/`-separated: also its path inside a pack.
    public var path: String
    public var size: Int64
    public var stamp: FileStamp
    /// Sorted tags; empty for a file that stays in the app bundle.
    public var tags: [String]
    /// The first manifest entry that tagged the file, for diagnostics that point at the manifest.
    public var firstEntry: Int?

    public init(path: String, size: Int64, stamp: FileStamp, tags: [String], firstEntry: Int?) {
        self.path = path
        self.size = size
        self.stamp = stamp
        self.tags = tags
        self.firstEntry = firstEntry
    }
}

extension String {
    /// Code-point order (UTF-8 byte order): the order every sorted path list uses, independent of locale.
    public func precedesByCodePoint(_ other: String) -> Bool {
        let result = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in
                let common = min(left.count, right.count)
                if common > 0 {
                    let order = memcmp(left.baseAddress!, right.baseAddress!, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
        return (result ?? nil) ?? utf8.lexicographicallyPrecedes(other.utf8)
    }

    /// Byte equality: paths are compared as stored, not by Unicode canonical equivalence as `==` does.
    public func hasSameBytes(as other: String) -> Bool {
        let result = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in
                left.count == right.count && (left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
        return (result ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}
