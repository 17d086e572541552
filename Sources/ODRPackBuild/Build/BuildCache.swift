import Foundation
import ODRPackPlatform

/// What the last build into a folder learned: each file's SHA-256 keyed by its metadata, and each pack
/// archive's facts keyed by what decided its bytes. A small binary file, read on every build that is not up to date.
/// It lives outside the output folder (which holds only deterministic output), keyed by that folder's path:
/// `$ODRPACK_CACHE_DIR`, else `$XDG_CACHE_HOME/odrpack`, else `~/.cache/odrpack`.
struct BuildCache: Sendable, Equatable {
    static let magic = Array("odrpack-cache 3\n".utf8)

    /// The cache file for an output folder (an absolute, standardized path).
    static func location(for outputDirectory: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let folder: String
        if let explicit = environment["ODRPACK_CACHE_DIR"], !explicit.isEmpty {
            folder = explicit
        } else if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            folder = xdg + "/odrpack"
        } else if let home = environment["HOME"], !home.isEmpty {
            folder = home + "/.cache/odrpack"
        } else {
            folder = NSTemporaryDirectory() + "odrpack-cache-\(SystemCall.userID)"
        }
        return folder + "/" + Data(outputDirectory.utf8).sha256Hex.prefix(32) + ".cache"
    }

    struct FileRecord: Equatable, Sendable {
        var path: String
        var stamp: FileStamp
        var digest: FileDigest
    }

    struct PackRecord: Equatable, Sendable {
        var fileName: String
        var archiveKey: String
        var archiveSize: Int64
        var archiveSha256: String
        var contentHash: String
        var uncompressedSize: Int64
        /// The archive's metadata (or a digest of a pack folder's) right after it was moved into place.
        var archiveStamp: String
        /// The pack's files in its order, as positions in `files`.
        var files: [Int]
    }

    var rootPath = ""
    /// Everything the output files depend on (see `PackBuilder.fingerprint`), and their metadata once written.
    var fingerprint = ""
    var outputs: [String: FileStamp] = [:]
    /// Every packed file, sorted by path in code-point order.
    var files: [FileRecord] = []
    var packs: [String: PackRecord] = [:]

    /// The record of the file at `path`, found by binary search.
    func file(atPath path: String) -> FileRecord? {
        var low = 0, high = files.count
        while low < high {
            let middle = (low + high) / 2
            if files[middle].path.precedesByCodePoint(path) { low = middle + 1 } else { high = middle }
        }
        return low < files.count && files[low].path.hasSameBytes(as: path) ? files[low] : nil
    }

    /// Reads the cache; a missing or damaged one is simply empty.
    static func load(directory: String) -> BuildCache {
        FileManager.default.contents(atPath: location(for: directory)).flatMap(parse) ?? BuildCache()
    }

    /// The cache in `data`, or nil when it is not a whole cache of this version.
    static func parse(_ data: Data) -> BuildCache? {
        data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw)
            return try? reader.cache()
        }
    }

    /// The cache file's bytes.
    func serialized() -> Data {
        var writer = Writer()
        writer.out.reserveCapacity(64 + files.count * 160 + packs.count * 400)
        writer.out += Self.magic
        writer.string(rootPath)
        writer.string(fingerprint)
        writer.integer(outputs.count)
        for name in outputs.keys.sorted() {
            writer.string(name)
            writer.stamp(outputs[name]!)
        }
        writer.integer(files.count)
        for file in files {
            writer.string(file.path)
            writer.stamp(file.stamp)
            writer.string(file.digest.sha256)
            writer.integer(file.digest.crc32)
        }
        writer.integer(packs.count)
        for id in packs.keys.sorted() {
            let pack = packs[id]!
            for text in [id, pack.fileName, pack.archiveKey, pack.archiveSha256, pack.contentHash] { writer.string(text) }
            writer.integer(pack.archiveSize)
            writer.integer(pack.uncompressedSize)
            writer.string(pack.archiveStamp)
            writer.integer(pack.files.count)
            for position in pack.files { writer.integer(position) }
        }
        return Data(writer.out)
    }

    /// The metadata of a file on disk, or nil when it is missing.
    static func stamp(atPath path: String) -> FileStamp? {
        SystemCall.status(path)?.stamp
    }

    /// What says a written pack is as the build left it: a zip's metadata, or a digest of the name and metadata
    /// of everything in a pack folder (so a file changed, added or removed inside it is seen). Nil when it is missing.
    static func packStamp(atPath path: String) -> String? {
        guard let status = SystemCall.status(path, followingLinks: false) else { return nil }
        if status.kind == .regular { return "f" + UpToDateRecord.text(status.stamp) }
        guard status.kind == .directory else { return nil }
        var hasher = SHA256Hasher()
        func walk(_ relative: String) -> Bool {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path + relative) else { return false }
            for name in names.sorted(by: { $0.precedesByCodePoint($1) }) {
                guard let child = SystemCall.status(path + relative + "/" + name, followingLinks: false) else { return false }
                hasher.update("\(relative)/\(name)\0\(child.mode)\0\(UpToDateRecord.text(child.stamp))\n")
                if child.kind == .directory && !walk(relative + "/" + name) { return false }
            }
            return true
        }
        return walk("") ? "d" + hasher.finalize() : nil
    }

    /// Little-endian integers and length-prefixed UTF-8 strings.
    private struct Writer {
        var out: [UInt8] = []

        mutating func integer<T: FixedWidthInteger>(_ value: T) {
            let bits = UInt64(bitPattern: Int64(value))
            for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: bits >> shift)) }
        }

        mutating func string(_ value: String) {
            integer(value.utf8.count)
            out.append(contentsOf: value.utf8)
        }

        mutating func stamp(_ value: FileStamp) {
            integer(value.size)
            integer(value.modificationNanoseconds)
            integer(value.changeNanoseconds)
            integer(Int64(bitPattern: value.inode))
            integer(Int64(bitPattern: value.device))
        }
    }

    private struct Reader {
        struct Damaged: Error {}

        let bytes: UnsafeRawBufferPointer
        var position = 0

        mutating func integer() throws -> Int64 {
            guard bytes.count - position >= 8 else { throw Damaged() }
            defer { position += 8 }
            return Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: Int64.self))
        }

        mutating func count(limit: Int) throws -> Int {
            let value = try integer()
            guard value >= 0, value <= limit else { throw Damaged() }
            return Int(value)
        }

        mutating func string() throws -> String {
            let length = try count(limit: bytes.count - position - 8)
            defer { position += length }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)]), as: UTF8.self)
        }

        mutating func stamp() throws -> FileStamp {
            FileStamp(size: try integer(), modificationNanoseconds: try integer(), changeNanoseconds: try integer(),
                      inode: UInt64(bitPattern: try integer()), device: UInt64(bitPattern: try integer()))
        }

        mutating func cache() throws -> BuildCache {
            guard bytes.count >= BuildCache.magic.count,
                  bytes.prefix(BuildCache.magic.count).elementsEqual(BuildCache.magic) else { throw Damaged() }
            position = BuildCache.magic.count
            var cache = BuildCache()
            cache.rootPath = try string()
            cache.fingerprint = try string()
            for _ in 0..<(try count(limit: bytes.count)) {
                let name = try string()
                cache.outputs[name] = try stamp()
            }
            let fileCount = try count(limit: bytes.count / 64)
            cache.files.reserveCapacity(fileCount)
            for _ in 0..<fileCount {
                let path = try string(), stamp = try stamp(), sha256 = try string()
                let crc = try integer()
                guard let crc32 = UInt32(exactly: crc) else { throw Damaged() }
                cache.files.append(FileRecord(path: path, stamp: stamp, digest: FileDigest(sha256: sha256, crc32: crc32)))
            }
            for _ in 0..<(try count(limit: bytes.count)) {
                let id = try string()
                let fileName = try string(), archiveKey = try string(), archiveSha256 = try string(), contentHash = try string()
                let archiveSize = try integer()
                let uncompressedSize = try integer()
                let archiveStamp = try string()
                let files = try (0..<(try count(limit: fileCount))).map { _ in try count(limit: fileCount - 1) }
                cache.packs[id] = PackRecord(fileName: fileName, archiveKey: archiveKey, archiveSize: archiveSize,
                                             archiveSha256: archiveSha256, contentHash: contentHash,
                                             uncompressedSize: uncompressedSize, archiveStamp: archiveStamp, files: files)
            }
            guard position == bytes.count else { throw Damaged() }
            return cache
        }
    }
}
