import ODRPackCore
import ODRPackPlatform

/// What writing a pack learned: the fields of odrpack-manifest.json and of the asset-pack manifest that need contents.
package struct PackArchiveFacts: Sendable, Equatable {
    /// The archive's bytes (zip layout), or the bytes of every file in the pack folder (folder layout).
    package let archiveSize: Int64
    /// SHA-256 of the archive, or of the folder's `path NUL size NUL sha256 LF` lines (docs/build-output.md).
    package let archiveSha256: String
    package let contentHash: String
    /// Each resource's digest, in the pack's file order.
    package var files: [FileDigest]
    /// The bytes of the pack's resources and its Info.plist: what signing added is not counted (docs/build-output.md, as in
    /// every pack of Xcode's exports).
    package let uncompressedSize: Int64

    package init(
        archiveSize: Int64, archiveSha256: String, contentHash: String, files: [FileDigest], uncompressedSize: Int64
    ) {
        self.archiveSize = archiveSize
        self.archiveSha256 = archiveSha256
        self.contentHash = contentHash
        self.files = files
        self.uncompressedSize = uncompressedSize
    }

    /// SHA-256 of the pack's sorted (path, size, sha256) list, one `path NUL size NUL sha256 LF` record each.
    package static func contentHash(files: some Sequence<ResolvedResource>, sha256: [String]) -> String {
        contentHash(zip(files, sha256).lazy.map { ($0.path, $0.size, $1) })
    }

    /// `contentHash(files:sha256:)` from the digests' own bytes, without a hex String per file.
    package static func contentHash(files: some Sequence<ResolvedResource>, digests: [FileDigest]) -> String {
        var hasher = ContentHasher()
        for (file, digest) in zip(files, digests) {
            var path = file.path
            path.withUTF8 { path in digest.withSHA256Bytes { hasher.add(path: path, size: file.size, digest: $0) } }
        }
        return hasher.finalize()
    }

    package static func contentHash(_ records: some Sequence<(path: String, size: Int64, sha256: String)>) -> String {
        var hasher = ContentHasher()
        for record in records { hasher.add(path: record.path, size: record.size, sha256: record.sha256) }
        return hasher.finalize()
    }
}
