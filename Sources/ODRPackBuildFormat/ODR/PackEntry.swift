import Foundation
import ODRPackCore
import ODRPackPlatform

/// A file's SHA-256 and CRC-32: what the build learns by reading it once, and keeps in its cache.
package struct FileDigest: Equatable, Sendable {
    package var sha256: String
    package let crc32: UInt32

    package init(sha256: String, crc32: UInt32) {
        self.sha256 = sha256
        self.crc32 = crc32
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
        case file(path: String, size: Int64, stamp: FileStamp?, known: FileDigest?)
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

    /// A pack's content: Info.plist, its resources, and a folder entry for every folder.
    package static func entries(of pack: AssetPack, infoPlist: [UInt8], rootPath: String, known: [FileDigest?])
        -> [PackEntry]
    {
        var entries: [PackEntry] = []
        entries.reserveCapacity(pack.files.count * 2 + 1)
        var infoAdded = false
        var openFolders: [Substring] = []
        func append(_ entry: PackEntry) {
            if !infoAdded && infoPlistName.precedesByCodePoint(entry.name) {
                entries.append(PackEntry(name: infoPlistName, content: .bytes(infoPlist)))
                infoAdded = true
            }
            entries.append(entry)
        }
        for (index, file) in pack.files.enumerated() {
            let parts = file.path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            var common = 0
            while common < min(parts.count, openFolders.count)
                && parts[parts.startIndex + common] == openFolders[common]
            { common += 1 }
            openFolders.removeSubrange(common...)
            for depth in common..<parts.count {
                openFolders.append(parts[parts.startIndex + depth])
                append(PackEntry(name: openFolders.joined(separator: "/") + "/", content: .folder))
            }
            append(
                PackEntry(
                    name: file.path,
                    content: .file(
                        path: rootPath + "/" + file.source, size: file.size,
                        stamp: file.stamp, known: known[index])))
        }
        if !infoAdded { entries.append(PackEntry(name: infoPlistName, content: .bytes(infoPlist))) }
        return entries
    }

    /// Everything in a folder (a signed pack), in archive order. Only folders and regular files may be there.
    package static func entries(ofFolder root: String) throws -> [PackEntry] {
        try FolderWalk.entries(under: root, slashedFolders: true).map { entry in
            switch entry.status.kind {
            case .directory: return PackEntry(name: entry.path + "/", content: .folder)
            case .regular:
                return PackEntry(
                    name: entry.path,
                    content: .file(path: root + "/" + entry.path, size: entry.status.stamp.size, stamp: nil, known: nil)
                )
            case .symbolicLink, .other:
                throw ODRPackError.unbuildable(
                    "'\(root)/\(entry.path)' is neither a file nor a folder: a pack holds only those")
            }
        }
    }
}
