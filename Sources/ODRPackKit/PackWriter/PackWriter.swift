import CArchive
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one pack in the layout the build asks for (SPEC 7): a streaming zip, or a reproducible folder,
/// optionally signed on its folder form. Reads each resource once where it can (files up to one chunk, and
/// larger ones the cache vouches for); one writer per worker thread, which owns its buffers.
final class PackWriter {
    static let chunkSize = 1 << 20
    /// Bytes sampled (at the start, middle and end) to judge whether deflate is worthwhile.
    static let sampleSize = 16 * 1024
    /// Deflate only when a trial saves at least this fraction of the sample.
    static let worthwhileSaving = 0.05

    let options: BuildOptions
    private let buffer: UnsafeMutableRawBufferPointer
    private let sample: UnsafeMutableRawBufferPointer
    private let trial: UnsafeMutableRawBufferPointer
    /// Reports bytes read as they stream, for progress.
    var onBytes: ((Int64) -> Void)?

    init(options: BuildOptions) {
        self.options = options
        buffer = .allocate(byteCount: Self.chunkSize, alignment: 16)
        sample = .allocate(byteCount: Self.sampleSize * 3, alignment: 16)
        trial = .allocate(byteCount: Int(compressBound(uLong(Self.sampleSize * 3))), alignment: 16)
    }

    deinit {
        buffer.deallocate()
        sample.deallocate()
        trial.deallocate()
    }

    /// Writes `pack` at `temporaryPath` (a file or a folder, by layout); the caller moves it into place.
    func write(_ pack: AssetPack, infoPlist: [UInt8], rootPath: String, known: [FileDigest?], to temporaryPath: String) throws -> PackArchiveFacts {
        let entries = PackEntry.entries(of: pack, infoPlist: infoPlist, rootPath: rootPath, known: known)
        if options.layout == .zip && options.signCommand == nil {
            let (size, sha256, digests) = try writeZip(entries, at: temporaryPath)
            let files = zip(entries, digests).compactMap { entry, digest -> FileDigest? in
                if case .file = entry.content { return digest } else { return nil }
            }
            return facts(pack, files: files, archiveSize: size, archiveSha256: sha256,
                         uncompressedSize: entries.reduce(0) { $0 + $1.size })
        }
        // A zip is signed on a folder of its own, named like the pack so that a signer sees an .assetpack bundle.
        let folder = options.layout == .folder ? temporaryPath
            : (temporaryPath as NSString).deletingLastPathComponent + "/.odrpack-tmp-\(getpid())-signing-" + pack.fileName
        defer { if folder != temporaryPath { try? FileManager.default.removeItem(atPath: folder) } }
        var written = try writeFolder(entries, at: folder)
        if let command = options.signCommand {
            try SignCommand(command).run(on: folder)
            written = try rehashChanged(in: folder, written: written)
        }
        let signed = try PackEntry.entries(ofFolder: folder)
        if options.layout == .zip {
            let (size, sha256, digests) = try writeZip(signed.map { entry in
                guard case let .file(path, size, _, _) = entry.content else { return entry }
                return PackEntry(name: entry.name, content: .file(path: path, size: size, stamp: nil, known: written[entry.name]))
            }, at: temporaryPath)
            var archived: [String: FileDigest] = [:]
            for (entry, digest) in zip(signed, digests) { archived[entry.name] = digest }
            return facts(pack, files: try resourceDigests(pack, archived), archiveSize: size, archiveSha256: sha256,
                         uncompressedSize: signed.reduce(0) { $0 + $1.size })
        }
        var lines = SHA256Hasher()
        var total: Int64 = 0
        var present: [String: FileDigest] = [:]
        for entry in signed where !entry.isFolder {
            guard let digest = written[entry.name] else { throw BuildError.io("'\(folder)/\(entry.name)' was not hashed", errno: EIO) }
            total += entry.size
            present[entry.name] = digest
            lines.update("\(entry.name)\0\(entry.size)\0\(digest.sha256)\n")
        }
        return facts(pack, files: try resourceDigests(pack, present), archiveSize: total, archiveSha256: lines.finalize(),
                     uncompressedSize: total)
    }

    /// The resources' digests from what the pack holds after signing: a signer may add files, never remove them.
    private func resourceDigests(_ pack: AssetPack, _ digests: [String: FileDigest]) throws -> [FileDigest] {
        try pack.files.map { file in
            guard let digest = digests[file.path] else {
                throw BuildError.io("the sign command removed '\(file.path)' from pack '\(pack.shortName)': a signer may add files to a pack, not remove them", errno: EINVAL)
            }
            return digest
        }
    }

    private func facts(_ pack: AssetPack, files: [FileDigest], archiveSize: Int64, archiveSha256: String,
                       uncompressedSize: Int64) -> PackArchiveFacts {
        PackArchiveFacts(archiveSize: archiveSize, archiveSha256: archiveSha256,
                         contentHash: PackArchiveFacts.contentHash(files: pack.files, sha256: files.map(\.sha256)),
                         files: files, uncompressedSize: uncompressedSize)
    }

    // MARK: Zip

    /// Writes META-INF and `entries` as a zip; returns its size, SHA-256 and each file entry's digest.
    private func writeZip(_ entries: [PackEntry], at path: String) throws -> (Int64, String, [FileDigest?]) {
        let descriptor = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw BuildError.system("cannot create '\(path)'") }
        defer { close(descriptor) }
        let writer = try AssetPackZipWriter(descriptor: descriptor, path: path, entryTime: options.entryTime,
                                            level: options.compression == .store ? nil : options.level)
        try writer.addFolder(ZipMetadata.folderName)
        _ = try addBytes(Array(ZipMetadata(entries: entries).propertyList.binaryData()), named: ZipMetadata.fileName, to: writer)
        var digests: [FileDigest?] = []
        digests.reserveCapacity(entries.count)
        for entry in entries {
            switch entry.content {
            case .folder:
                try writer.addFolder(entry.name)
                digests.append(nil)
            case let .bytes(bytes):
                digests.append(try addBytes(bytes, named: entry.name, to: writer))
            case let .file(path, size, stamp, known):
                digests.append(try addFile(entry.name, path: path, size: size, stamp: stamp, known: known, to: writer))
            }
        }
        let (size, sha256) = try writer.finish()
        return (size, sha256, digests)
    }

    private func addBytes(_ bytes: [UInt8], named name: String, to writer: AssetPackZipWriter) throws -> FileDigest {
        try bytes.withUnsafeBytes { raw in
            let digest = Self.digest(raw)
            try writer.addFile(name, bytes: raw, crc: digest.crc32, deflate: shouldDeflate(inMemory: raw))
            return digest
        }
    }

    private func addFile(_ name: String, path: String, size: Int64, stamp: FileStamp?, known: FileDigest?,
                         to writer: AssetPackZipWriter) throws -> FileDigest {
        let source = try SourceFile(path: path, name: name, expected: stamp, size: size)
        defer { source.close() }
        if size <= Int64(buffer.count) {
            let bytes = try source.readWhole(into: buffer)
            onBytes?(size)
            let digest = known ?? Self.digest(bytes)
            try writer.addFile(name, bytes: bytes, crc: digest.crc32, deflate: shouldDeflate(inMemory: bytes))
            try source.checkUnchanged()
            return digest
        }
        let digest: FileDigest
        if let known {
            digest = known
        } else {
            var hasher = SHA256Hasher()
            var crc: UInt32 = 0
            try source.stream(into: buffer) { chunk in
                hasher.update(chunk)
                crc = CRC32.update(crc, chunk)
            }
            digest = FileDigest(sha256: hasher.finalize(), crc32: crc)
        }
        let deflate = try shouldDeflate(size: size) { offset, count, into in try source.read(at: offset, count: count, into: into) }
        var crc: UInt32 = 0
        try writer.addFile(name, size: size, crc: digest.crc32, deflate: deflate) { append in
            try source.stream(into: buffer) { chunk in
                crc = CRC32.update(crc, chunk)
                try append(chunk)
                onBytes?(Int64(chunk.count))
            }
        }
        guard crc == digest.crc32 else { throw source.changed() }
        try source.checkUnchanged()
        return digest
    }

    static func digest(_ bytes: UnsafeRawBufferPointer) -> FileDigest {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return FileDigest(sha256: hasher.finalize(), crc32: CRC32.update(0, bytes))
    }

    // MARK: Folder

    /// Writes `entries` under `root` with modes 0644/0755 and every time set to the entry time; returns each file's digest.
    private func writeFolder(_ entries: [PackEntry], at root: String) throws -> [String: FileDigest] {
        try? FileManager.default.removeItem(atPath: root)
        try makeFolder(root)
        var digests: [String: FileDigest] = [:]
        for entry in entries {
            let path = root + "/" + entry.name
            switch entry.content {
            case .folder:
                try makeFolder(String(path.dropLast()))
            case let .bytes(bytes):
                let output = try OutputFile(path: path)
                defer { output.close() }
                try bytes.withUnsafeBytes { raw in
                    try output.write(raw)
                    digests[entry.name] = Self.digest(raw)
                }
                try output.finish(time: options.entryTime)
            case let .file(source, size, stamp, known):
                let input = try SourceFile(path: source, name: entry.name, expected: stamp, size: size)
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
                digests[entry.name] = known ?? FileDigest(sha256: hasher.finalize(), crc32: crc)
            }
        }
        // Folders last, deepest first: writing inside a folder changes its time.
        for entry in entries.reversed() where entry.isFolder {
            try OutputFile.setFolderAttributes(root + "/" + String(entry.name.dropLast()), time: options.entryTime)
        }
        try OutputFile.setFolderAttributes(root, time: options.entryTime)
        return digests
    }

    /// After signing: the digest of every file the signer added or changed (its metadata differs from what was written).
    private func rehashChanged(in root: String, written: [String: FileDigest]) throws -> [String: FileDigest] {
        var digests = written
        for entry in try PackEntry.entries(ofFolder: root) where !entry.isFolder {
            var info = stat()
            let path = root + "/" + entry.name
            guard stat(path, &info) == 0 else { throw BuildError.system("cannot stat '\(path)'") }
            let stamp = FileStamp(info)
            if written[entry.name] != nil && stamp.modificationNanoseconds == options.entryTime * 1_000_000_000
                && (info.st_mode & 0o7777) == 0o644 && stamp.size == entry.size {
                continue
            }
            // What the signer wrote keeps its bytes but takes the pack's modes and times, so the tree stays reproducible.
            let input = try SourceFile(path: path, name: entry.name, expected: nil, size: entry.size)
            defer { input.close() }
            var hasher = SHA256Hasher()
            var crc: UInt32 = 0
            try input.stream(into: buffer) { chunk in
                hasher.update(chunk)
                crc = CRC32.update(crc, chunk)
            }
            digests[entry.name] = FileDigest(sha256: hasher.finalize(), crc32: crc)
            try OutputFile.setFileAttributes(path, time: options.entryTime)
        }
        for entry in try PackEntry.entries(ofFolder: root).reversed() where entry.isFolder {
            try OutputFile.setFolderAttributes(root + "/" + String(entry.name.dropLast()), time: options.entryTime)
        }
        try OutputFile.setFolderAttributes(root, time: options.entryTime)
        return digests
    }

    private func makeFolder(_ path: String) throws {
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw BuildError.system("cannot create folder '\(path)'") }
    }

    // MARK: Compression choice

    private func shouldDeflate(inMemory bytes: UnsafeRawBufferPointer) throws -> Bool {
        try shouldDeflate(size: Int64(bytes.count)) { offset, count, into in
            into.copyMemory(from: bytes.baseAddress! + Int(offset), byteCount: count)
            return count
        }
    }

    /// `auto`: trial-deflates samples of the bytes (fast level 1) and deflates only when that saves enough.
    /// Depends only on the bytes, so the choice is deterministic.
    private func shouldDeflate(size: Int64, read: (Int64, Int, UnsafeMutableRawPointer) throws -> Int) throws -> Bool {
        switch options.compression {
        case .store: return false
        case .deflate: return true
        case .auto: break
        }
        if size == 0 { return false }
        let piece = Int64(Self.sampleSize)
        let offsets: [Int64] = size <= piece * 3 ? [0] : [0, (size - piece) / 2, size - piece]
        let length = size <= piece * 3 ? Int(size) : Self.sampleSize
        var sampled = 0
        for offset in offsets { sampled += try read(offset, length, sample.baseAddress! + sampled) }
        guard sampled > 0 else { return false }
        var compressedLength = uLong(trial.count)
        let status = compress2(trial.baseAddress!.assumingMemoryBound(to: Bytef.self), &compressedLength,
                               sample.baseAddress!.assumingMemoryBound(to: Bytef.self), uLong(sampled), 1)
        guard status == Z_OK else { return true }
        return Double(compressedLength) <= Double(sampled) * (1 - Self.worthwhileSaving)
    }
}
