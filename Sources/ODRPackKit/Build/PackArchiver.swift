import CArchive
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes one pack as a zip archive, streaming every file through a fixed buffer while hashing it.
/// One archiver per worker thread: it owns its buffers and is never shared.
final class PackArchiver {
    static let chunkSize = 1 << 20
    /// Bytes sampled (at the start, middle and end) to judge whether deflate is worthwhile.
    static let sampleSize = 16 * 1024
    /// Deflate only when a trial saves at least this fraction of the sample.
    static let worthwhileSaving = 0.05

    let options: BuildOptions
    let rootPath: String
    private let buffer: UnsafeMutableRawBufferPointer
    private let trialBuffer: UnsafeMutablePointer<UInt8>
    private let trialCapacity: Int
    /// Reports bytes read as they stream, for progress.
    var onBytes: ((Int64) -> Void)?

    init(options: BuildOptions, rootPath: String) {
        self.options = options
        self.rootPath = rootPath
        buffer = .allocate(byteCount: Self.chunkSize, alignment: 16)
        trialCapacity = Int(compressBound(uLong(Self.sampleSize * 3)))
        trialBuffer = .allocate(capacity: trialCapacity)
    }

    deinit {
        buffer.deallocate()
        trialBuffer.deallocate()
    }

    /// Writes `pack` to the open, empty file `descriptor`; returns its facts.
    func write(_ pack: AssetPack, infoPlist: Data, to descriptor: Int32) throws -> PackArchiveFacts {
        let writer = try ZipArchiveWriter(descriptor: descriptor, compressionLevel: options.level)
        var hashes: [String] = []
        hashes.reserveCapacity(pack.files.count)
        var infoWritten = false
        func writeInfo() throws {
            try writer.addEntry(path: "Info.plist", size: Int64(infoPlist.count), modificationTime: options.entryTime,
                                deflate: options.compression == .deflate) { append in
                try infoPlist.withUnsafeBytes { try append($0) }
            }
            infoWritten = true
        }
        for file in pack.files {
            if !infoWritten && "Info.plist".precedesByCodePoint(file.path) { try writeInfo() }
            hashes.append(try addFile(file, to: writer))
        }
        if !infoWritten { try writeInfo() }
        let archive = try writer.finish()
        return PackArchiveFacts(archiveSize: archive.size, archiveSha256: archive.sha256,
                                contentHash: Self.contentHash(files: pack.files, sha256: hashes), fileSha256: hashes)
    }

    /// SHA-256 of the pack's sorted (path, size, sha256) list, one `path NUL size NUL sha256 LF` record each.
    static func contentHash(files: [ResolvedResource], sha256: [String]) -> String {
        var hasher = SHA256Hasher()
        for (file, hash) in zip(files, sha256) { hasher.update("\(file.path)\0\(file.size)\0\(hash)\n") }
        return hasher.finalize()
    }

    private func addFile(_ file: ResolvedResource, to writer: ZipArchiveWriter) throws -> String {
        let path = rootPath + "/" + file.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw BuildError.system("cannot open '\(file.path)'")
        }
        defer { close(descriptor) }
        let before = try stamp(descriptor, file.path)
        guard before.size == file.size, before.modificationNanoseconds == file.stamp.modificationNanoseconds else {
            throw BuildError.fileChanged("'\(file.path)' changed after it was planned: run the build again once it is stable")
        }
        posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
        let deflate = try shouldDeflate(descriptor, size: file.size, path: file.path)
        var hasher = SHA256Hasher()
        var total: Int64 = 0
        try writer.addEntry(path: file.path, size: file.size, modificationTime: options.entryTime, deflate: deflate) { append in
            total = try FileChunks.read(descriptor, path: file.path, buffer: buffer, limit: file.size) { chunk in
                hasher.update(chunk)
                try append(chunk)
                onBytes?(Int64(chunk.count))
            }
        }
        let after = try stamp(descriptor, file.path)
        guard total == file.size, after.size == before.size, after.modificationNanoseconds == before.modificationNanoseconds else {
            throw BuildError.fileChanged("'\(file.path)' changed while it was being read: run the build again once it is stable")
        }
        return hasher.finalize()
    }

    private func stamp(_ descriptor: Int32, _ path: String) throws -> FileStamp {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw BuildError.system("cannot stat '\(path)'")
        }
        return FileStamp(info)
    }

    /// `auto`: trial-deflates samples of the file (fast level 1) and deflates only when that saves enough.
    /// Depends only on the bytes, so the choice is deterministic.
    private func shouldDeflate(_ descriptor: Int32, size: Int64, path: String) throws -> Bool {
        switch options.compression {
        case .store: return false
        case .deflate: return true
        case .auto: break
        }
        if size == 0 { return false }
        let sample = Int64(Self.sampleSize)
        let offsets: [Int64] = size <= sample * 3 ? [0] : [0, (size - sample) / 2, size - sample]
        let length = size <= sample * 3 ? Int(size) : Self.sampleSize
        var sampled = 0
        for offset in offsets {
            let count = pread(descriptor, buffer.baseAddress! + sampled, length, off_t(offset))
            if count < 0 {
                throw BuildError.system("cannot read '\(path)'")
            }
            sampled += count
        }
        guard sampled > 0 else { return false }
        var compressedLength = uLong(trialCapacity)
        let status = compress2(trialBuffer, &compressedLength, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self),
                               uLong(sampled), 1)
        guard status == Z_OK else { return true }
        return Double(compressedLength) <= Double(sampled) * (1 - Self.worthwhileSaving)
    }
}

extension FileStamp {
    init(_ info: stat) {
        self.init(size: Int64(info.st_size),
                  modificationNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                  changeNanoseconds: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
                  inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
    }
}
