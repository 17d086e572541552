import Foundation
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// Zips a folder into an IPA (docs/store.md#ipa) with the project's zip writer: entries sorted by path, each folder
/// before what it holds, every entry at one time, local headers with CRC-32 and sizes (no data descriptors), zip64
/// only where a number needs it. Files are deflated unless that saves nothing; modes are kept (an executable stays
/// executable) and symbolic links are stored as links (their target as data, the link mode). The same folder gives
/// the same bytes (folders are 0755, as the process's umask would otherwise show through). Ctrl-C stops it between
/// entries (`Interrupt.checkpoint`), so that `ipa` removes what it wrote before it exits.
enum IPAArchiver {
    /// Files up to this size are read and deflated in memory; larger ones are deflated twice, once only to measure.
    static let inMemoryLimit = 1 << 20
    static let level = 6

    /// Writes the zip of everything under `root` to the new file `path`; returns its size.
    /// - Parameter progress: counts the files zipped and their bytes.
    static func archive(
        _ root: FilePath, to path: FilePath, entryTime: Int64, progress: ProgressBar = ProgressBar.silent()
    ) throws -> Int64 {
        if progress.isShown {
            // The bar's totals, from a walk that keeps only counts.
            var (files, bytes) = (0, Int64(0))
            try FolderWalk.walk(under: root, slashedFolders: true) { entry in
                guard entry.status.kind == .regular else { return }
                files += 1
                bytes = [bytes, entry.status.stamp.size].saturatingSum
            }
            progress.begin(units: files, bytes: bytes, unit: "files")
        }
        let descriptor = try SystemCall.createFile(path)
        defer { SystemCall.closeFile(descriptor) }
        let writer = try AssetPackZipWriter(descriptor: descriptor, path: path, entryTime: entryTime, level: level)
        let measure = try Deflater(level: level)
        let buffer = ReadBuffer(size: inMemoryLimit)
        // Zipped as walked: the walk's order is the zip's (paths by their bytes, folders as "name/"), and only the
        // folders on the way down are held, never the whole tree (docs/store.md#ipa). Names go in as their bytes: a
        // file whose name is not UTF-8 keeps it, without the UTF-8 flag (docs/store.md#ipa).
        try FolderWalk.walk(under: root, slashedFolders: true) { entry in
            try Interrupt.checkpoint()
            let source = entry.file(under: root)
            let permissions = UInt32(entry.status.permissions) & 0o777
            switch entry.status.kind {
            case .directory:
                // Folders are 0755 whatever the umask or the copy's owner bits: the same app gives the same bytes.
                try writer.add(nameBytes: entry.pathBytes + [UInt8(ascii: "/")], .folder, mode: 0o040755)
            case .symbolicLink:
                let bytes = try SystemCall.linkTarget(source)
                _ = try bytes.withUnsafeBytes { raw in
                    try writer.add(
                        nameBytes: entry.pathBytes, .archived(raw, deflated: false), size: Int64(raw.count),
                        crc: CRC32.update(0, raw), mode: 0o120000 | permissions)
                }
            case .regular:
                try addFile(
                    source, as: entry.pathBytes, size: entry.status.stamp.size, mode: 0o100000 | permissions,
                    writer: writer, measure: measure, buffer: buffer)
                progress.add(bytes: entry.status.stamp.size)
                progress.unitFinished()
            case .other:
                throw ODRPackError.ipa(.unsupportedInIPA(source.text))
            }
        }
        let (size, _) = try writer.finish()
        return size
    }

    /// One file, deflated when that makes it smaller, else stored.
    private static func addFile(
        _ source: FilePath, as name: [UInt8], size: Int64, mode: UInt32, writer: AssetPackZipWriter, measure: Deflater,
        buffer: ReadBuffer
    ) throws {
        if size <= Int64(inMemoryLimit) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Int(size))
            try stream(source, size: size, buffer: buffer) { bytes.append(contentsOf: $0) }
            var deflated: [UInt8] = []
            let crc = try bytes.withUnsafeBytes { raw -> UInt32 in
                try measure.compress(raw, finish: true) { deflated.append(contentsOf: $0) }
                return CRC32.update(0, raw)
            }
            let useDeflated = deflated.count < bytes.count
            _ = try (useDeflated ? deflated : bytes).withUnsafeBytes { raw in
                try writer.add(
                    nameBytes: name, .archived(raw, deflated: useDeflated), size: size, crc: crc, mode: mode)
            }
            return
        }
        // Large: a first pass gives the CRC-32 and the deflated size, the second writes the chosen form.
        var crc: UInt32 = 0
        var deflatedSize: Int64 = 0
        try stream(source, size: size, buffer: buffer) { piece in
            crc = CRC32.update(crc, piece)
            try measure.compress(piece, finish: false) { deflatedSize += Int64($0.count) }
        }
        try measure.compress(UnsafeRawBufferPointer(start: nil, count: 0), finish: true) {
            deflatedSize += Int64($0.count)
        }
        try writer.add(nameBytes: name, .streamed(deflate: deflatedSize < size), size: size, crc: crc, mode: mode) {
            sink in
            try stream(source, size: size, buffer: buffer, sink)
        }
    }

    private static func stream(
        _ path: FilePath, size: Int64, buffer: ReadBuffer, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let input = try SourceFile(path: path, name: path.text, expected: nil, size: size)
        defer { input.close() }
        try input.stream(into: buffer.bytes, body)
    }
}
