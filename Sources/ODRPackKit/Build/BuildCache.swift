import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the last build into a folder learned: each file's SHA-256 keyed by its metadata, and each pack
/// archive's facts keyed by what decided its bytes. A line-based text file: quick to read on a no-op build.
/// It lives outside the output folder (which holds only deterministic output), keyed by that folder's path:
/// `$ODRPACK_CACHE_DIR`, else `$XDG_CACHE_HOME/odrpack`, else `~/.cache/odrpack`.
struct BuildCache {
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

    struct FileRecord: Equatable {
        var stamp: FileStamp
        var sha256: String
    }

    struct PackRecord: Equatable {
        var fileName: String
        var archiveKey: String
        var facts: PackArchiveFacts
        /// The archive file's metadata right after it was renamed into place.
        var archiveStamp: FileStamp
    }

    var rootPath = ""
    var files: [String: FileRecord] = [:]
    var packs: [String: PackRecord] = [:]

    /// Reads the cache; a missing or damaged one is simply empty.
    static func load(directory: String) -> BuildCache {
        guard let data = FileManager.default.contents(atPath: location(for: directory)),
              let text = String(data: data, encoding: .utf8) else { return BuildCache() }
        var cache = BuildCache()
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).makeIterator()
        guard lines.next() == Substring(header) else { return BuildCache() }
        var pendingPack: (id: String, record: PackRecord)?
        while let line = lines.next() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            switch fields.first {
            case "R" where fields.count == 2:
                cache.rootPath = unescape(fields[1])
            case "F" where fields.count == 8:
                guard let stamp = stamp(fields[1...5]) else { return BuildCache() }
                cache.files[unescape(fields[7])] = FileRecord(stamp: stamp, sha256: String(fields[6]))
            case "P" where fields.count == 12:
                guard let stamp = stamp(fields[6...10]), let size = Int64(fields[4]) else { return BuildCache() }
                let facts = PackArchiveFacts(archiveSize: size, archiveSha256: String(fields[5]),
                                             contentHash: String(fields[3]), fileSha256: [])
                pendingPack = (String(fields[1]), PackRecord(fileName: unescape(fields[11]), archiveKey: unescape(fields[2]),
                                                              facts: facts, archiveStamp: stamp))
                cache.packs[String(fields[1])] = pendingPack!.record
            case "H" where fields.count == 2:
                guard let pending = pendingPack else { return BuildCache() }
                cache.packs[pending.id]!.facts.fileSha256 = fields[1].split(separator: ",").map(String.init)
            default:
                return BuildCache()
            }
        }
        return cache
    }

    func serialized() -> String {
        var out = Self.header + "\nR\t" + Self.escape(rootPath) + "\n"
        for path in files.keys.sorted(by: { $0.precedesByCodePoint($1) }) {
            let record = files[path]!
            out += "F\t\(Self.fields(record.stamp))\t\(record.sha256)\t\(Self.escape(path))\n"
        }
        for id in packs.keys.sorted() {
            let record = packs[id]!
            out += "P\t\(id)\t\(Self.escape(record.archiveKey))\t\(record.facts.contentHash)\t\(record.facts.archiveSize)\t"
            out += "\(record.facts.archiveSha256)\t\(Self.fields(record.archiveStamp))\t\(Self.escape(record.fileName))\n"
            out += "H\t\(record.facts.fileSha256.joined(separator: ","))\n"
        }
        return out
    }

    static func fields(_ stamp: FileStamp) -> String {
        "\(stamp.size)\t\(stamp.modificationNanoseconds)\t\(stamp.changeNanoseconds)\t\(stamp.inode)\t\(stamp.device)"
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

    static func unescape(_ text: Substring) -> String {
        guard text.contains("\\") else { return String(text) }
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
