import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the last build into a folder learned: each file's SHA-256 keyed by its metadata, and each pack
/// archive's facts keyed by what decided its bytes. A line-based text file: quick to read on a no-op build.
/// It lives outside the output folder (which holds only deterministic output), keyed by that folder's path:
/// `$ODRPACK_CACHE_DIR`, else `$XDG_CACHE_HOME/odrpack`, else `~/.cache/odrpack`.
struct BuildCache: Sendable, Equatable {
    static let header = "odrpack-cache 1"

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
            folder = NSTemporaryDirectory() + "odrpack-cache-\(getuid())"
        }
        return folder + "/" + Data(outputDirectory.utf8).sha256Hex.prefix(32) + ".cache"
    }

    struct FileRecord: Equatable, Sendable {
        var stamp: FileStamp
        var sha256: String
    }

    struct PackRecord: Equatable, Sendable {
        var fileName: String
        var archiveKey: String
        var facts: PackArchiveFacts
        /// The archive file's metadata right after it was renamed into place.
        var archiveStamp: FileStamp
    }

    var rootPath = ""
    /// Everything the output files depend on (see `PackBuilder.fingerprint`), and their metadata once written.
    var fingerprint = ""
    var outputs: [String: FileStamp] = [:]
    var files: [String: FileRecord] = [:]
    var packs: [String: PackRecord] = [:]

    /// Reads the cache; a missing or damaged one is simply empty. Parsed as bytes: it is read on every build.
    static func load(directory: String) -> BuildCache {
        guard let data = FileManager.default.contents(atPath: location(for: directory)) else { return BuildCache() }
        return data.withUnsafeBytes { raw in parse(raw.bindMemory(to: UInt8.self)) } ?? BuildCache()
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> BuildCache? {
        var cache = BuildCache()
        cache.files.reserveCapacity(bytes.lazy.filter { $0 == 0x0A }.count)
        var fields: [UnsafeBufferPointer<UInt8>] = []
        fields.reserveCapacity(12)
        var lastPack: String?
        var lineStart = 0
        var isFirst = true
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])
            lineStart = lineEnd + 1
            if isFirst {
                guard String(decoding: line, as: UTF8.self) == header else { return nil }
                isFirst = false
                continue
            }
            fields.removeAll(keepingCapacity: true)
            var fieldStart = 0
            for index in 0...line.count where index == line.count || line[index] == 0x09 {
                fields.append(UnsafeBufferPointer(rebasing: line[fieldStart..<index]))
                fieldStart = index + 1
            }
            func text(_ index: Int) -> String { String(decoding: fields[index], as: UTF8.self) }
            func number(_ index: Int) -> Int64? {
                var value: Int64 = 0
                var negative = false
                for (position, byte) in fields[index].enumerated() {
                    if position == 0 && byte == 0x2D { negative = true; continue }
                    guard (0x30...0x39).contains(byte) else { return nil }
                    value = value &* 10 &+ Int64(byte - 0x30)
                }
                return negative ? -value : value
            }
            func stamp(_ first: Int) -> FileStamp? {
                guard let size = number(first), let modified = number(first + 1), let changed = number(first + 2),
                      let inode = number(first + 3), let device = number(first + 4) else { return nil }
                return FileStamp(size: size, modificationNanoseconds: modified, changeNanoseconds: changed,
                                 inode: UInt64(bitPattern: inode), device: UInt64(bitPattern: device))
            }
            switch (fields.first?.first, fields.count) {
            case (UInt8(ascii: "R"), 2):
                cache.rootPath = unescape(text(1))
            case (UInt8(ascii: "X"), 2):
                cache.fingerprint = text(1)
            case (UInt8(ascii: "O"), 7):
                guard let stamp = stamp(1) else { return nil }
                cache.outputs[unescape(text(6))] = stamp
            case (UInt8(ascii: "F"), 8):
                guard let stamp = stamp(1) else { return nil }
                cache.files[unescape(text(7))] = FileRecord(stamp: stamp, sha256: text(6))
            case (UInt8(ascii: "P"), 12):
                guard let stamp = stamp(6), let size = number(4) else { return nil }
                let facts = PackArchiveFacts(archiveSize: size, archiveSha256: text(5), contentHash: text(3), fileSha256: [])
                lastPack = text(1)
                cache.packs[text(1)] = PackRecord(fileName: unescape(text(11)), archiveKey: unescape(text(2)),
                                                  facts: facts, archiveStamp: stamp)
            case (UInt8(ascii: "H"), 2):
                guard let id = lastPack else { return nil }
                var hashes: [String] = []
                var start = 0
                let list = fields[1]
                for index in 0...list.count where index == list.count || list[index] == UInt8(ascii: ",") {
                    if index > start { hashes.append(String(decoding: UnsafeBufferPointer(rebasing: list[start..<index]), as: UTF8.self)) }
                    start = index + 1
                }
                cache.packs[id]!.facts.fileSha256 = hashes
            default:
                return nil
            }
        }
        return isFirst ? nil : cache
    }

    /// The cache file's bytes. Lines are in no particular order: the cache is compared as a value, not as bytes.
    func serialized() -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(files.count * 160 + packs.count * 400)
        func text(_ value: String) { out.append(contentsOf: value.utf8) }
        var digits: [UInt8] = []
        digits.reserveCapacity(20)
        func number(_ value: Int64) {
            if value < 0 { out.append(UInt8(ascii: "-")) }
            var magnitude = value.magnitude
            digits.removeAll(keepingCapacity: true)
            repeat {
                digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: digits.reversed())
        }
        func stamp(_ value: FileStamp) {
            number(value.size)
            out.append(0x09)
            number(value.modificationNanoseconds)
            out.append(0x09)
            number(value.changeNanoseconds)
            out.append(0x09)
            number(Int64(bitPattern: value.inode))
            out.append(0x09)
            number(Int64(bitPattern: value.device))
        }
        text(Self.header + "\nR\t" + Self.escape(rootPath) + "\nX\t" + fingerprint + "\n")
        for (name, value) in outputs {
            text("O\t"); stamp(value); text("\t" + Self.escape(name) + "\n")
        }
        for (path, record) in files {
            text("F\t"); stamp(record.stamp); text("\t" + record.sha256 + "\t" + Self.escape(path) + "\n")
        }
        for (id, record) in packs {
            text("P\t\(id)\t\(Self.escape(record.archiveKey))\t\(record.facts.contentHash)\t\(record.facts.archiveSize)\t\(record.facts.archiveSha256)\t")
            stamp(record.archiveStamp)
            text("\t" + Self.escape(record.fileName) + "\nH\t" + record.facts.fileSha256.joined(separator: ",") + "\n")
        }
        return Data(out)
    }

    static func stamp(_ fields: ArraySlice<Substring>) -> FileStamp? {
        let values = fields.map { Int64($0) }
        guard values.count == 5, values.allSatisfy({ $0 != nil }) else { return nil }
        return FileStamp(size: values[0]!, modificationNanoseconds: values[1]!,
                         changeNanoseconds: values[2]!, inode: UInt64(bitPattern: values[3]!), device: UInt64(bitPattern: values[4]!))
    }

    static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "\\" || $0 == "\t" || $0 == "\n" || $0 == "\r" }) else { return text }
        return text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
            .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
    }

    static func unescape(_ text: String) -> String {
        guard text.utf8.contains(0x5C) else { return text }
        var out = ""
        var escaping = false
        for character in text {
            if escaping {
                out.append(character == "t" ? "\t" : character == "n" ? "\n" : character == "r" ? "\r" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// The metadata of a file on disk, or nil when it is missing.
    static func stamp(atPath path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(info)
    }
}
