import Foundation
import ODRPackCore
import ODRPackPlatform

/// Writes one Background Assets pack (SPEC 12): its `<id>.json` in place, where the packager is told to find it, and,
/// through Apple's packager run from resources-root, its `<id>.aar` in a temporary folder that the commit moves into
/// place. The `<id>.json` it replaces is kept in that folder and put back if the build fails (see `restore`).
final class BackgroundAssetsPackWriter: PackFormatWriter {
    /// Beside the kept manifest in the temporary folder: `.previous` holds the replaced file, `.absent` says there was none.
    static let previousSuffix = ".previous"
    static let absentSuffix = ".absent"

    private let packager: BackgroundAssetsPackager
    /// Each pack's ba-package manifest, by pack index.
    private let manifests: [String]
    private let rootPath: String
    private let packsPath: String
    private let buffer = ReadBuffer(size: PackWriter.chunkSize)
    var onBytes: (@Sendable (Int64) -> Void)?

    init(packager: BackgroundAssetsPackager, manifests: [String], rootPath: String, packsPath: String) {
        self.packager = packager
        self.manifests = manifests
        self.rootPath = rootPath
        self.packsPath = packsPath
    }

    func write(_ pack: AssetPack, index: Int, known: [FileDigest?], to temporaryPath: String) throws -> PackArchiveFacts {
        // The manifest records every file's sha256: read what the cache does not vouch for.
        var digests: [FileDigest] = []
        digests.reserveCapacity(pack.files.count)
        for (file, digest) in zip(pack.files, known) {
            if let digest {
                digests.append(digest)
                continue
            }
            digests.append(try PackReuse.digest(of: rootPath + "/" + file.source, file: file, buffer: buffer.bytes))
            onBytes?(file.size)
        }
        try? FileManager.default.removeItem(atPath: temporaryPath)
        try OutputFile.makeFolder(temporaryPath)
        let manifestName = BackgroundAssetsLayout.manifestName(of: pack.assetPackID)
        let manifestPath = packsPath + "/" + manifestName
        let archivePath = temporaryPath + "/" + BackgroundAssetsLayout.archiveName(of: pack.assetPackID)
        let bytes = Data(manifests[index].utf8)
        if FileManager.default.contents(atPath: manifestPath) != bytes {
            if let failure = SystemCall.rename(manifestPath, to: temporaryPath + "/" + manifestName + Self.previousSuffix) {
                guard failure.isMissing else {
                    throw ODRPackError.systemCall("cannot move '\(manifestPath)' aside", failure)
                }
                try AtomicFile.write(Data(), to: temporaryPath + "/" + manifestName + Self.absentSuffix)
            }
            try AtomicFile.write(bytes, to: manifestPath)
        }
        try packager.run(manifest: manifestPath, output: archivePath, in: rootPath, pack: pack.assetPackID)
        guard case let .success(output) = LocalFileSystem().status(archivePath, followingLinks: false),
              output.kind == .regular, output.stamp.size > 0 else {
            throw ODRPackError.commandFailed(
                "the Background Assets packager wrote no archive for pack '\(pack.assetPackID)' (it exited 0, but '\(archivePath)' is missing or empty): check that it writes its output where {output} says; the previous output is unchanged")
        }
        // The packager read the files itself: they must still be what was hashed.
        for file in pack.files {
            let now = BuildState.stamp(atPath: rootPath + "/" + file.source)
            guard now?.size != file.size || now?.modificationNanoseconds != file.stamp.modificationNanoseconds else { continue }
            throw ODRPackError.fileChanged("'\(file.path)' changed while pack '\(pack.assetPackID)' was being packaged: run the build again once it is stable")
        }
        let (size, sha256) = try BuildVerifier.fileDigest(archivePath)
        return PackArchiveFacts(archiveSize: size, archiveSha256: sha256,
                                contentHash: PackArchiveFacts.contentHash(files: pack.files, sha256: digests.map(\.sha256)),
                                files: digests, uncompressedSize: pack.size)
    }

    /// After a failed build: every `<id>.json` a writer of this process replaced is put back as it was, so the
    /// previous output stays whole. Returns nothing; what cannot be put back is left for the next build to rewrite.
    static func restore(packsPath: String) {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: packsPath)) ?? []
        for folder in folders where folder.hasPrefix(TemporaryName.processPrefix) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: packsPath + "/" + folder)) ?? [] {
                let kept = packsPath + "/" + folder + "/" + name
                if name.hasSuffix(previousSuffix) {
                    _ = SystemCall.rename(kept, to: packsPath + "/" + String(name.dropLast(previousSuffix.count)))
                } else if name.hasSuffix(absentSuffix) {
                    _ = SystemCall.removeFile(packsPath + "/" + String(name.dropLast(absentSuffix.count)))
                }
            }
        }
    }
}
