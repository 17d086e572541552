import ODRPackCore
import ODRPackPlatform

/// What writing a pack learned: the fields of odrpack-manifest.json and of the asset-pack manifest that need contents.
package struct PackArchiveFacts: Sendable, Equatable {
    /// The archive's bytes (zip layout), or the bytes of every file in the pack folder (folder layout).
    var archiveSize: Int64
    /// SHA-256 of the archive, or of the folder's `path NUL size NUL sha256 LF` lines (docs/build-output.md).
    var archiveSha256: String
    var contentHash: String
    /// Each resource's digest, in the pack's file order.
    package var files: [FileDigest]
    /// The bytes of the pack's resources and its Info.plist: what signing added is not counted (docs/build-output.md, as in
    /// every pack of Xcode's exports).
    var uncompressedSize: Int64

    /// SHA-256 of the pack's sorted (path, size, sha256) list, one `path NUL size NUL sha256 LF` record each.
    static func contentHash(files: [ResolvedResource], sha256: [String]) -> String {
        contentHash(zip(files, sha256).lazy.map { ($0.path, $0.size, $1) })
    }

    static func contentHash(_ records: some Sequence<(path: String, size: Int64, sha256: String)>) -> String {
        var hasher = SHA256Hasher()
        for record in records { hasher.update("\(record.path)\0\(record.size)\0\(record.sha256)\n") }
        return hasher.finalize()
    }
}
