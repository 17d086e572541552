import Foundation
import ODRPackCore
import ODRPackPlatform

/// A file's SHA-256 and CRC-32: what the build learns by reading it once, and keeps in its cache. The digest's 32
/// bytes are held inline (eight 32-bit words in the digest's byte order, so an array of them takes 36 bytes a file), not as a 64-character hex string: a build keeps one
/// for every file of every pack until its manifest is written, and a string would be a heap allocation of 96 bytes
/// each (docs/performance.md).
package struct FileDigest: Equatable, Sendable {
    /// The SHA-256's bytes 0-3, 4-7, …, 28-31, each word holding its bytes in memory order.
    private var words: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    package let crc32: UInt32

    /// - Parameter sha256: 64 lowercase hex digits, as `SHA256Hasher` gives them. Anything else (never made by odrpack)
    ///   becomes 32 bytes of 0xFF.
    package init(sha256: String, crc32: UInt32) {
        self.crc32 = crc32
        words = (.max, .max, .max, .max, .max, .max, .max, .max)
        var text = sha256
        // Once per file of a build: parsed from the contiguous UTF-8 into a tuple, with no array and no iterator.
        text.withUTF8 { hex in
            var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            if withUnsafeMutableBytes(of: &bytes, { LowercaseHex.parse(hex, into: $0) }) {
                withUnsafeBytes(of: bytes) { setBytes($0) }
            }
        }
    }

    /// The digest from its 32 raw bytes (`bytes.count` must be 32) and CRC-32.
    package init(sha256Bytes bytes: UnsafeRawBufferPointer, crc32: UInt32) {
        precondition(bytes.count == 32, "a SHA-256 has 32 bytes")
        self.crc32 = crc32
        words = (0, 0, 0, 0, 0, 0, 0, 0)
        setBytes(bytes)
    }

    private mutating func setBytes(_ bytes: UnsafeRawBufferPointer) {
        words = (
            bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self),
            bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
            bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self),
            bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self),
            bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self),
            bytes.loadUnaligned(fromByteOffset: 20, as: UInt32.self),
            bytes.loadUnaligned(fromByteOffset: 24, as: UInt32.self),
            bytes.loadUnaligned(fromByteOffset: 28, as: UInt32.self)
        )
    }

    /// Calls `body` with the digest's 32 bytes.
    package func withSHA256Bytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withUnsafeBytes(of: words, body)
    }

    /// The SHA-256 as 64 lowercase hex digits, as odrpack-manifest.json spells it; setting it parses them.
    package var sha256: String {
        get { withSHA256Bytes(LowercaseHex.string) }
        set { self = FileDigest(sha256: newValue, crc32: crc32) }
    }

    package static func == (lhs: FileDigest, rhs: FileDigest) -> Bool {
        lhs.crc32 == rhs.crc32 && lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1
            && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3 && lhs.words.4 == rhs.words.4
            && lhs.words.5 == rhs.words.5 && lhs.words.6 == rhs.words.6 && lhs.words.7 == rhs.words.7
    }
}

/// One entry of a pack in the order its archive holds it (docs/build-output.md): every folder before what it contains,
/// everything else in code-point order of the path; folder names end with "/".
package struct PackEntry {
    package enum Content {
        case folder
        case bytes([UInt8])
        /// A file on disk. `stamp` is set for resources, which must not change while they are read;
        /// `known` is its digest when the cache vouches for it.
        case file(location: Location, size: Int64, stamp: FileStamp?, known: FileDigest?)
    }

    /// Where a file entry's bytes are: a folder and a path under it, kept apart so that an entry makes no joined path
    /// until its file is opened (docs/build-output.md#bounded).
    package struct Location: Sendable {
        package let folder: String
        package let relative: String
        /// The folder as its bytes, for a folder on disk that its text may not name again (a pack folder in a build
        /// folder whose path is not UTF-8, docs/architecture.md#paths); nil for a folder kept as text (resources-root).
        private let folderPath: FilePath?

        package init(folder: String, relative: String) {
            self.folder = folder
            self.relative = relative
            folderPath = nil
        }

        /// A file under a folder named by its bytes.
        package init(folder: FilePath, relative: String) {
            self.folder = folder.string
            self.relative = relative
            folderPath = folder
        }

        /// The file's path as text, made when it is opened: one join per file of a pack, where a `FilePath` made from
        /// the two would cost a second allocation (docs/architecture.md#paths).
        package var path: String { folder.slashJoined(relative) }

        /// The file's path for the calls that open it.
        package var file: FilePath { folderPath.map { $0.joined(relative) } ?? FilePath(path) }
    }

    package let name: String
    package let content: Content

    package init(name: String, content: Content) {
        self.name = name
        self.content = content
    }

    package var isFolder: Bool { if case .folder = content { return true } else { return false } }

    /// Uncompressed bytes.
    package var size: Int64 {
        switch content {
        case .folder: return 0
        case .bytes(let bytes): return Int64(bytes.count)
        case .file(_, let size, _, _): return size
        }
    }

    package static let infoPlistName = "Info.plist"
    /// Files a signer adds to a pack: in the archive but not in the manifest's list of resources.
    package static let signatureFolder = "_CodeSignature/"

    /// A pack's content: Info.plist, its resources, and a folder entry for every folder (`PackEntries`).
    /// - Parameter known: each file's digest when the cache vouches for it; an empty list knows none.
    package static func entries(of pack: AssetPack, infoPlist: [UInt8], rootPath: String, known: [FileDigest?])
        -> PackEntries
    {
        PackEntries(of: pack, infoPlist: infoPlist, rootPath: rootPath, known: known)
    }

    /// Everything in a folder (a signed pack), in archive order. Only folders and regular files may be there.
    package static func entries(ofFolder root: FilePath) throws -> [PackEntry] {
        try FolderWalk.entries(under: root, slashedFolders: true).map { entry in
            switch entry.status.kind {
            case .directory: return PackEntry(name: entry.path + "/", content: .folder)
            case .regular:
                return PackEntry(
                    name: entry.path,
                    content: .file(
                        location: Location(folder: root, relative: entry.path), size: entry.status.stamp.size,
                        stamp: nil, known: nil))
            case .symbolicLink, .other:
                throw ODRPackError.unbuildable(.notFileOrFolder(root.joined(entry.path)))
            }
        }
    }
}
