import Foundation

/// Metadata that identifies a file's content without reading it: if all of it is equal, the bytes are too.
public struct FileStamp: Equatable, Hashable, Sendable, Codable {
    public var size: Int64
    public var modificationNanoseconds: Int64
    public var changeNanoseconds: Int64
    public var inode: UInt64
    public var device: UInt64

    public init(size: Int64, modificationNanoseconds: Int64, changeNanoseconds: Int64, inode: UInt64, device: UInt64) {
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
        self.changeNanoseconds = changeNanoseconds
        self.inode = inode
        self.device = device
    }
}

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

/// The result of resolving a manifest against the file system.
public struct Resolution: Sendable {
    /// Absolute path of resources-root (symbolic links resolved).
    public var rootPath: String
    /// Tagged resources, sorted by path.
    public var resources: [ResolvedResource]
    public var appBundleFiles: Int
    public var appBundleSize: Int64
    public var diagnostics: [Diagnostic]
    /// The scanned tree's `FileTree.fingerprint`: what the build's up-to-date record compares.
    public var fingerprint: String?

    public init(rootPath: String, resources: [ResolvedResource], appBundleFiles: Int, appBundleSize: Int64,
                diagnostics: [Diagnostic], fingerprint: String? = nil) {
        self.rootPath = rootPath
        self.resources = resources
        self.appBundleFiles = appBundleFiles
        self.appBundleSize = appBundleSize
        self.diagnostics = diagnostics
        self.fingerprint = fingerprint
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
