import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// Writes one Background Assets pack (docs/background-assets.md) in its own temporary folder outside the live output: the pack's
/// ba-package manifest (`<id>.json`) and, through Apple's packager, its archive (`<id>.aar`, a path that does not
/// exist when the packager starts: ba-package refuses to overwrite). The commit moves the archive into place and
/// writes the live `<id>.json`, so a build killed while a packager runs leaves the previous output as it was.
final class BackgroundAssetsPackWriter: PackFormatWriter {
    /// The folder, inside a pack's temporary folder, where its files are at their destinations when `into` moved any.
    static let stagingFolder = "stage"

    private let packager: BackgroundAssetsPackager
    /// Each pack's ba-package manifest, by pack index.
    private let manifests: [StreamedDocument]
    /// resources-root, links resolved: where each file's `source` is.
    private let root: FilePath
    private let buffer = ReadBuffer(size: PackWriter.chunkSize)
    var onBytes: (@Sendable (Int64) -> Void)?

    init(packager: BackgroundAssetsPackager, manifests: [StreamedDocument], rootPath: String) {
        self.packager = packager
        self.manifests = manifests
        root = FilePath(rootPath)
    }

    func write(_ pack: AssetPack, index: Int, known: [FileDigest?], to temporaryFolder: FilePath) throws
        -> PackArchiveFacts
    {
        // The manifest records every file's sha256: read what the cache does not vouch for.
        var digests: [FileDigest] = []
        digests.reserveCapacity(pack.files.count)
        for (index, file) in pack.files.enumerated() {
            // An empty `known` knows no digest (`KnownDigests.forWriter`).
            if index < known.count, let digest = known[index] {
                digests.append(digest)
                continue
            }
            digests.append(try PackReuse.digest(of: root.joined(file.source), file: file, buffer: buffer))
            onBytes?(file.size)
        }
        try OutputFolder.remove(temporaryFolder)
        try OutputFolder.makeFolder(temporaryFolder)
        let manifestPath = temporaryFolder.joined(BackgroundAssetsLayout.manifestName(of: pack.assetPackID))
        let archivePath = temporaryFolder.joined(BackgroundAssetsLayout.archiveName(of: pack.assetPackID))
        try AtomicFile.stage(manifests[index], for: manifestPath).moveIntoPlace()
        // ba-package resolves each selector against where it runs: resources-root when every file is at its source
        // path, else a staging folder holding the files at their destinations.
        var directory = root
        if pack.files.contains(where: \.isPlaced) {
            directory = temporaryFolder.joined(Self.stagingFolder)
            try stage(pack, in: directory)
        }
        // The packager takes paths as text: a Background Assets build runs only in a folder whose path is UTF-8
        // (`BuildOptions.refuseTextOnlyOutput`, docs/architecture.md#paths), which text names again.
        try packager.run(
            manifest: manifestPath.string, output: archivePath.string, in: directory.string, pack: pack.assetPackID)
        guard case .success(let output) = LocalFileSystem().status(archivePath, followingLinks: false),
            output.kind == .regular, output.stamp.size > 0
        else {
            throw ODRPackError.commandFailed(.packagerWroteNoArchive(pack: pack.assetPackID, archive: archivePath))
        }
        // The packager read the files itself: they must still be what was hashed.
        for file in pack.files {
            let now = BuildState.stamp(at: root.joined(file.source))
            guard now?.size != file.size || now?.modificationNanoseconds != file.stamp.modificationNanoseconds else {
                continue
            }
            throw ODRPackError.changed(.whilePackaged(file.source, pack: pack.assetPackID))
        }
        let (size, sha256) = try SourceFile.sha256(of: archivePath, name: archivePath.text)
        return PackArchiveFacts(
            archiveSize: size, archiveSha256: sha256,
            contentHash: PackArchiveFacts.contentHash(files: pack.files, sha256: digests.map(\.sha256)),
            files: digests, uncompressedSize: pack.size)
    }

    /// Every file of the pack at its destination under `folder`: a hard link where the file system allows, else a copy.
    private func stage(_ pack: AssetPack, in folder: FilePath) throws {
        // By bytes: `café` in NFC and in NFD are two folders on Linux, one String to Swift's `==`.
        var made = Set<FilePath>()
        for file in pack.files {
            let destination = folder.joined(file.path)
            let parent = destination.parent
            if made.insert(parent).inserted { try OutputFolder.makeFolder(parent) }
            let source = root.joined(file.source)
            if SystemCall.hardLink(source, to: destination) != nil {
                try FileCopy.copy(source, to: destination)
            }
        }
    }
}
