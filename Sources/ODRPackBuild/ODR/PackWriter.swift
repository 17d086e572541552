import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// Writes one pack in the layout the build asks for (docs/build-output.md): a streaming zip, or a reproducible folder,
/// optionally signed on its folder form. Reads each resource once where it can (files up to one chunk, and
/// larger ones the cache vouches for); one writer per worker thread, which owns its buffers.
final class PackWriter: PackFormatWriter {
    static let chunkSize = 1 << 20
    /// Entries up to this size are read whole and deflated by libdeflate, on every core; larger ones stream through
    /// zlib. The rule depends only on an entry's size, so the bytes are the same on every machine.
    static let wholeEntryLimit = 4 << 20
    /// Small entries prepared together on every core, then written in order: at most this many, or bytes.
    static let batchEntries = 256
    static let batchBytes: Int64 = 16 << 20

    let options: BuildOptions
    /// Each pack's Info.plist bytes, by pack index, and the folder its resources' paths are relative to.
    private let infoPlists: [[UInt8]]
    private let rootPath: String
    /// This writer's own compressor (its buffer serves the large files too), and the build's spares it borrows from.
    private let compressor: EntryCompressor
    private let spares: CompressorPool
    /// Unchanged entries of the last build's archives, copied instead of compressed again.
    private let reusable: EntryReuse
    private var buffer: UnsafeMutableRawBufferPointer { compressor.buffer.bytes }
    /// Reports bytes read as they stream, for progress (from several threads).
    var onBytes: (@Sendable (Int64) -> Void)?

    init(
        options: BuildOptions, spares: CompressorPool, infoPlists: [[UInt8]], rootPath: String,
        entries: EntryReuse = EntryReuse()
    ) {
        self.options = options
        reusable = entries
        self.infoPlists = infoPlists
        self.rootPath = rootPath
        compressor = EntryCompressor(options: options)
        self.spares = spares
    }

    /// Writes `pack` at `temporaryPath` (a file or a folder, by layout); the caller moves it into place.
    func write(_ pack: AssetPack, index: Int, known: [FileDigest?], to temporaryPath: FilePath) throws
        -> PackArchiveFacts
    {
        let entries = PackEntry.entries(of: pack, infoPlist: infoPlists[index], rootPath: rootPath, known: known)
        if options.layout == .zip && options.signCommand == nil {
            let (size, sha256, digests) = try writeZip(
                entries, reusing: reusable.entries[index] ?? [], at: temporaryPath)
            // Kept until the manifest is written: exactly one slot a file, not compactMap's doubling capacity.
            var files: [FileDigest] = []
            files.reserveCapacity(pack.files.count)
            for (position, digest) in digests.enumerated() where entries.isFile(at: position) {
                if let digest { files.append(digest) }
            }
            return facts(
                pack, files: files, archiveSize: size, archiveSha256: sha256,
                uncompressedSize: entries.sizes.saturatingSum)
        }
        // A zip is signed on a folder of its own, named exactly like the pack (inside a temporary folder) so that a
        // signer sees the .assetpack bundle it will be.
        // Only a signed zip gets here (an unsigned one returned above), and a sign command runs only in a folder whose
        // path is UTF-8 (`BuildOptions.refuseTextOnlyOutput`): the signing folder and the signer take text.
        let signingFolder = temporaryPath.text + "-signing"
        let folder = options.layout == .folder ? temporaryPath : FilePath(signingFolder).joined(pack.fileName)
        if options.layout == .zip { try OutputFolder.makeFolder(FilePath(signingFolder)) }
        defer { if options.layout == .zip { try? FileManager.default.removeItem(atPath: signingFolder) } }
        var written = try writeFolder(entries, at: folder)
        var signed = Array(entries)
        if let command = options.signCommand {
            try SignCommand(command).run(on: folder.string)
            let unsigned = written
            (signed, written) = try rehashChanged(in: folder.string, written: written)
            try SignCommand.checkKept(pack, before: unsigned, entries: signed, digests: written)
        }
        if options.layout == .zip {
            let (size, sha256, digests) = try writeZip(
                signed.map { entry in
                    guard case .file(let location, let size, _, _) = entry.content else { return entry }
                    return PackEntry(
                        name: entry.name,
                        content: .file(
                            location: location, size: size, stamp: nil, known: written[PathKey(entry.name)]))
                }, at: temporaryPath)
            var archived: [PathKey: FileDigest] = [:]
            for (entry, digest) in zip(signed, digests) { archived[PathKey(entry.name)] = digest }
            return facts(
                pack, files: try resourceDigests(pack, archived), archiveSize: size, archiveSha256: sha256,
                uncompressedSize: entries.sizes.saturatingSum)
        }
        var lines = SHA256Hasher()
        var total: Int64 = 0
        var present: [PathKey: FileDigest] = [:]
        for entry in signed where !entry.isFolder {
            guard let digest = written[PathKey(entry.name)] else {
                throw ODRPackError.changed(.appearedInPackFolder("\(folder.text)/\(entry.name)"))
            }
            total = [total, entry.size].saturatingSum
            present[PathKey(entry.name)] = digest
            lines.update("\(entry.name)\0\(entry.size)\0\(digest.sha256)\n")
        }
        return facts(
            pack, files: try resourceDigests(pack, present), archiveSize: total, archiveSha256: lines.finalize(),
            uncompressedSize: entries.sizes.saturatingSum)
    }

    /// The resources' digests from what the pack holds after signing: a signer may add files, never remove them.
    private func resourceDigests(_ pack: AssetPack, _ digests: [PathKey: FileDigest]) throws -> [FileDigest] {
        try pack.files.map { file in
            guard let digest = digests[PathKey(file.path)] else {
                throw ODRPackError.commandFailed(
                    .signerRemoved(file.path, pack: pack.shortName, previousOutputUnchanged: false))
            }
            return digest
        }
    }

    private func facts(
        _ pack: AssetPack, files: [FileDigest], archiveSize: Int64, archiveSha256: String,
        uncompressedSize: Int64
    ) -> PackArchiveFacts {
        PackArchiveFacts(
            archiveSize: archiveSize, archiveSha256: archiveSha256,
            contentHash: PackArchiveFacts.contentHash(files: pack.files, digests: files),
            files: files, uncompressedSize: uncompressedSize)
    }

    // MARK: Zip

    /// The ZipMetadata of a pack's entries; of `PackEntries` without making each entry.
    private func metadata<Entries: RandomAccessCollection<PackEntry>>(_ entries: Entries) throws -> ZipMetadata
    where Entries.Index == Int {
        if let entries = entries as? PackEntries { return try ZipMetadata(count: entries.count, sizes: entries.sizes) }
        return try ZipMetadata(count: entries.count, sizes: entries.lazy.map(\.size))
    }

    /// Writes META-INF and `entries` as a zip; returns its size, SHA-256 and each file entry's digest.
    /// - Parameter reusing: by position among the file entries, where the last build's archives hold one unchanged.
    private func writeZip<Entries: RandomAccessCollection<PackEntry>>(
        _ entries: Entries, reusing: [EntryReuse.Entry?] = [], at file: FilePath
    ) throws -> (Int64, String, [FileDigest?]) where Entries.Index == Int {
        // Read and write: a large deflated entry is read back to hash it once its header is patched.
        let descriptor = try SystemCall.createFile(file)
        defer { SystemCall.closeFile(descriptor) }
        let writer = try AssetPackZipWriter(
            descriptor: descriptor, path: file, entryTime: options.entryTime,
            level: options.compression == .store ? nil : options.level)
        try writer.add(ZipMetadata.folderName, .folder)
        _ = try addBytes(
            Array(try metadata(entries).propertyList.binaryData()), named: ZipMetadata.fileName,
            to: writer)
        var digests: [FileDigest?] = Array(repeating: nil, count: entries.count)
        var archives = PreviousArchives(reuse: reusable)
        defer { archives.close() }
        // Small entries wait in a batch, prepared together then written in order; reused ones wait there too. An
        // entry is made once, here (`PackEntries` makes its name when it is read).
        var batch: [(index: Int, name: String, source: EntryCompressor.Source, reused: EntryReuse.Entry?)] = []
        var batchBytes: Int64 = 0
        func flush() throws {
            guard !batch.isEmpty else { return }
            var prepared = try prepare(batch.filter { $0.reused == nil }.map { ($0.name, $0.source) }).makeIterator()
            for (index, name, source, reused) in batch {
                if let reused, case .file(_, let size, _, let known?) = source {
                    try copy(name, size: size, digest: known, from: reused, archives: &archives, to: writer)
                    digests[index] = known
                    continue
                }
                guard let prepared = prepared.next() else {
                    preconditionFailure("one prepared entry per entry to prepare")
                }
                digests[index] = try add(prepared, named: name, to: writer)
            }
            batch.removeAll(keepingCapacity: true)
            batchBytes = 0
        }
        func wait(
            _ index: Int, _ name: String, _ source: EntryCompressor.Source, size: Int64, reused: EntryReuse.Entry?
        )
            throws
        {
            batch.append((index, name, source, reused))
            if reused == nil { batchBytes += size }
            if batch.count == Self.batchEntries || batchBytes >= Self.batchBytes { try flush() }
        }
        var filePosition = 0
        for (index, entry) in zip(entries.indices, entries) {
            var reused: EntryReuse.Entry?
            if case .file(_, _, _, let known) = entry.content {
                if known != nil && filePosition < reusing.count { reused = reusing[filePosition] }
                filePosition += 1
            }
            switch entry.content {
            case .folder:
                try flush()
                try writer.add(entry.name, .folder)
            case .file(let location, let size, let stamp, let known)
            where size > Int64(PackWriter.wholeEntryLimit) && reused == nil:
                try flush()
                digests[index] = try addFile(
                    entry.name, path: location.path, size: size, stamp: stamp, known: known, to: writer)
            case .file(let location, let size, let stamp, let known):
                try wait(
                    index, entry.name, .file(location: location, size: size, stamp: stamp, known: known), size: size,
                    reused: reused)
            case .bytes(let bytes):
                try wait(index, entry.name, .bytes(bytes), size: Int64(bytes.count), reused: reused)
            }
        }
        try flush()
        try archives.checkUnchanged()
        let (size, sha256) = try writer.finish()
        // The commit waits for the disk (docs/build-output.md, Durable); starting now overlaps that with the other packs' work.
        SystemCall.startWriteback(descriptor)
        return (size, sha256, digests)
    }

    /// Copies an unchanged entry's archived bytes from the last build's archive, once its local header there is
    /// exactly the one this writer gives the entry.
    private func copy(
        _ name: String, size: Int64, digest: FileDigest, from entry: EntryReuse.Entry,
        archives: inout PreviousArchives, to writer: AssetPackZipWriter
    ) throws {
        let (descriptor, path) = try archives.open(entry.archive)
        let header = writer.localHeader(
            ofFile: name, size: size, crc: digest.crc32, deflated: entry.deflated, compressedSize: entry.compressedSize)
        let changed = ODRPackError.changed(.notAsLastBuildLeft(path.text))
        guard header.count <= buffer.count,
            SystemCall.readFully(
                descriptor, into: buffer.baseAddress!, count: header.count, at: Int64(entry.headerOffset))
                == header.count,
            header.withUnsafeBytes({ $0.elementsEqual(UnsafeRawBufferPointer(rebasing: buffer[..<header.count])) })
        else { throw changed }
        var offset = Int64(entry.headerOffset) + Int64(header.count)
        try writer.add(
            name, .copied(compressedSize: entry.compressedSize, deflated: entry.deflated), size: size,
            crc: digest.crc32
        ) { append in
            var left = entry.compressedSize
            while left > 0 {
                let count = SystemCall.readFully(
                    descriptor, into: buffer.baseAddress!, count: Int(min(Int64(buffer.count), left)), at: offset)
                guard count > 0 else { throw changed }
                try append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                offset += Int64(count)
                left -= Int64(count)
            }
        }
        onBytes?(size)
    }

    private func addBytes(_ bytes: [UInt8], named name: String, to writer: AssetPackZipWriter) throws -> FileDigest {
        try add(
            try compressor.prepare(name, .bytes(bytes), onBytes: nil), named: name, to: writer
        )
    }

    /// Writes a prepared entry and returns its digest; a stored one whose SHA-256 is not known yet is hashed as it is
    /// archived.
    private func add(_ entry: EntryCompressor.Prepared, named name: String, to writer: AssetPackZipWriter) throws
        -> FileDigest
    {
        let hashed = try entry.payload.withUnsafeBytes {
            try writer.add(
                name, .archived($0, deflated: entry.deflated), size: entry.size, crc: entry.crc32,
                hashingContent: entry.sha256 == nil)
        }
        guard let sha256 = entry.sha256 ?? hashed else {
            preconditionFailure("the writer hashes an entry whose SHA-256 is not known yet")
        }
        return FileDigest(sha256: sha256, crc32: entry.crc32)
    }

    /// Prepares small entries on every core that is free, a slice per compressor; the first error in entry order is thrown.
    private func prepare(_ entries: [(name: String, source: EntryCompressor.Source)]) throws
        -> [EntryCompressor.Prepared]
    {
        if entries.isEmpty { return [] }
        let borrowed = spares.borrow(upTo: min(options.jobs, entries.count) - 1)
        defer { spares.giveBack(borrowed) }
        let pool = [compressor] + borrowed
        let report = onBytes
        let slices = min(pool.count, entries.count)
        return try parallelMap(Array(0..<slices), jobs: slices) { slice in
            try entries[(slice * entries.count / slices)..<((slice + 1) * entries.count / slices)].map {
                try pool[slice].prepare($0.name, $0.source, onBytes: report)
            }
        }.flatMap { $0 }
    }

    private func addFile(
        _ name: String, path: String, size: Int64, stamp: FileStamp?, known: FileDigest?,
        to writer: AssetPackZipWriter
    ) throws -> FileDigest {
        let source = try SourceFile(path: FilePath(path), name: name, expected: stamp, size: size)
        defer { source.close() }
        if options.checksContentWhileWriting { try source.checkNotExecutable() }
        // The local header needs the CRC before the data: from the cache, or from a first read. The SHA-256 the
        // cache does not know is computed as the file is archived (a stored file's in one pass with the archive's).
        let headerCRC = try known?.crc32 ?? source.crc32(buffer: buffer)
        let deflate = try compressor.shouldDeflate(size: size) { offset, count, into in
            try source.read(at: offset, count: count, into: into)
        }
        var crc: UInt32 = 0
        var passes = 0
        let hashed = try writer.add(
            name, .streamed(deflate: deflate), size: size, crc: headerCRC, hashingContent: known == nil
        ) { append in
            // A second pass stores what deflating did not make smaller: its CRC starts again, its bytes count once.
            crc = 0
            passes += 1
            let reports = passes == 1
            try source.stream(into: buffer) { chunk in
                crc = CRC32.update(crc, chunk)
                try append(chunk)
                if reports { onBytes?(Int64(chunk.count)) }
            }
        }
        // What was archived must be what the header's CRC describes.
        if crc != headerCRC { throw source.changed() }
        try source.checkUnchanged()
        guard let digest = known ?? hashed.map({ FileDigest(sha256: $0, crc32: crc) }) else {
            preconditionFailure("a file the cache does not know is hashed as it is archived")
        }
        return digest
    }

    // MARK: Folder

    /// Writes `entries` under `root` with modes 0644/0755 and every time set to the entry time; returns each file's digest.
    private func writeFolder(_ entries: some BidirectionalCollection<PackEntry>, at root: FilePath) throws -> [PathKey:
        FileDigest]
    {
        try? OutputFolder.remove(root)
        try OutputFolder.makeFolder(root)
        var digests: [PathKey: FileDigest] = [:]
        for entry in entries {
            // The entry's name joined to the folder's bytes (docs/architecture.md#paths); a folder's ends in "/".
            let path = root.joined(entry.isFolder ? String(entry.name.dropLast()) : entry.name)
            switch entry.content {
            case .folder:
                try OutputFolder.makeFolder(path)
            case .bytes(let bytes):
                let output = try OutputFile(path: path)
                defer { output.close() }
                try bytes.withUnsafeBytes { raw in
                    try output.write(raw)
                    digests[PathKey(entry.name)] = FileDigest(
                        sha256: SHA256Hasher.hex(raw), crc32: CRC32.update(0, raw))
                }
                try output.finish(time: options.entryTime)
            case .file(let location, let size, let stamp, let known):
                let input = try SourceFile(path: location.file, name: entry.name, expected: stamp, size: size)
                defer { input.close() }
                let output = try OutputFile(path: path)
                defer { output.close() }
                var hasher = SHA256Hasher()
                var crc: UInt32 = 0
                try input.stream(into: buffer) { chunk in
                    if known == nil {
                        hasher.update(chunk)
                        crc = CRC32.update(crc, chunk)
                    }
                    try output.write(chunk)
                    onBytes?(Int64(chunk.count))
                }
                try input.checkUnchanged()
                try output.finish(time: options.entryTime)
                digests[PathKey(entry.name)] = known ?? FileDigest(sha256: hasher.finalize(), crc32: crc)
            }
        }
        try OutputFile.setFolderAttributes(of: entries, under: root, time: options.entryTime)
        return digests
    }

    /// After signing: what the folder holds now, and the digest of every file the signer added or changed (its
    /// metadata differs from what was written).
    private func rehashChanged(in root: String, written: [PathKey: FileDigest]) throws -> (
        [PackEntry], [PathKey: FileDigest]
    ) {
        var digests = written
        let entries = try PackEntry.entries(ofFolder: FilePath(root))
        for entry in entries where !entry.isFolder {
            let path = root.slashJoined(entry.name)
            let file = FilePath(path)
            let status = try SystemCall.requireStatus(file, .named(.stat, path))
            let stamp = status.stamp
            if written[PathKey(entry.name)] != nil && stamp.modificationNanoseconds == options.entryTime * 1_000_000_000
                && status.permissions == 0o644 && stamp.size == entry.size
            {
                continue
            }
            // What the signer wrote keeps its bytes but takes the pack's modes and times, so the tree stays reproducible.
            digests[PathKey(entry.name)] = try SourceFile.digest(
                of: file, name: entry.name, expected: nil, size: entry.size, buffer: compressor.buffer)
            try OutputFile.setFileAttributes(file, time: options.entryTime)
        }
        try OutputFile.setFolderAttributes(of: entries, under: FilePath(root), time: options.entryTime)
        return (entries, digests)
    }
}
