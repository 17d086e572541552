import Foundation
import ODRPackCore
import ODRPackPlatform

/// What a successful build depended on and printed, kept beside the build cache: when all of it is
/// unchanged, the next build prints the same again instead of planning (see `UpToDateCheck`).
struct UpToDateRecord: Equatable {
    static let header = "odrpack-up-to-date 1"

    /// SHA-256 of the tool, the options and the manifest's path and bytes.
    var inputs = ""
    /// resources-root as the manifest names it (absolute, links not resolved), and resolved.
    var rootPath = ""
    var realRootPath = ""
    /// `FileTree.fingerprint` of resources-root, scanned before the build read any file.
    var treeFingerprint = ""
    /// Every output file (relative to the output folder) with its metadata once written.
    var outputs: [String: FileStamp] = [:]
    /// Output files the build removed, which must still be absent.
    var absent: [String] = []
    var packIDs: [String] = []
    var contentBytes: Int64 = 0
    var archiveBytes: Int64 = 0
    var diagnostics: [Diagnostic] = []

    static func location(forOutput outputPath: String,
                         environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let cache = BuildCache.location(for: outputPath, environment: environment)
        return String(cache.dropLast(".cache".count)) + ".up-to-date"
    }

    func serialized() -> Data {
        let escape = Self.escape
        var lines = [Self.header, "I\t\(inputs)", "R\t\(escape(rootPath))\t\(escape(realRootPath))\t\(treeFingerprint)",
                     "S\t\(contentBytes)\t\(archiveBytes)"]
        for name in outputs.keys.sorted() { lines.append("O\t\(Self.text(outputs[name]!))\t\(escape(name))") }
        lines += absent.map { "A\t\(escape($0))" }
        lines += packIDs.map { "P\t\(escape($0))" }
        for diagnostic in diagnostics {
            let location = diagnostic.location
            lines.append(["D", diagnostic.severity.rawValue, diagnostic.code.rawValue, escape(location?.file ?? ""),
                          "\(location?.line ?? 0)", "\(location?.column ?? 0)", diagnostic.subject == nil ? "0" : "1",
                          escape(diagnostic.subject ?? ""), escape(diagnostic.message)].joined(separator: "\t"))
        }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// The record, or nil when it is missing or damaged.
    static func load(path: String) -> UpToDateRecord? {
        FileManager.default.contents(atPath: path).flatMap(parse)
    }

    static func parse(_ data: Data) -> UpToDateRecord? {
        // Split as bytes: splitting a String splits on Characters, much slower and never needed here.
        let bytes = [UInt8](data)
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard lines.first?.elementsEqual(header.utf8) == true, lines.last?.isEmpty == true else { return nil }
        let unescape = Self.unescape
        var record = UpToDateRecord()
        for line in lines.dropFirst().dropLast() {
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            switch (fields.first ?? "", fields.count) {
            case ("I", 2):
                record.inputs = fields[1]
            case ("R", 4):
                record.rootPath = unescape(fields[1])
                record.realRootPath = unescape(fields[2])
                record.treeFingerprint = fields[3]
            case ("S", 3):
                guard let content = Int64(fields[1]), let archives = Int64(fields[2]) else { return nil }
                record.contentBytes = content
                record.archiveBytes = archives
            case ("O", 7):
                guard let stamp = Self.stamp(fields[1...5]) else { return nil }
                record.outputs[unescape(fields[6])] = stamp
            case ("A", 2):
                record.absent.append(unescape(fields[1]))
            case ("P", 2):
                record.packIDs.append(unescape(fields[1]))
            case ("D", 9):
                guard let severity = Diagnostic.Severity(rawValue: fields[1]),
                      let code = DiagnosticCode(rawValue: fields[2]),
                      let line = Int(fields[4]), let column = Int(fields[5]) else { return nil }
                let file = unescape(fields[3])
                record.diagnostics.append(Diagnostic(
                    severity, code, unescape(fields[8]),
                    at: file.isEmpty && line == 0 ? nil : SourceLocation(file: file, line: line, column: column),
                    subject: fields[6] == "1" ? unescape(fields[7]) : nil))
            default:
                return nil
            }
        }
        return record.inputs.isEmpty ? nil : record
    }

    /// A stamp as five tab-separated numbers, the form `stamp(_:)` reads back.
    static func text(_ stamp: FileStamp) -> String {
        "\(stamp.size)\t\(stamp.modificationNanoseconds)\t\(stamp.changeNanoseconds)\t\(Int64(bitPattern: stamp.inode))\t\(Int64(bitPattern: stamp.device))"
    }

    static func stamp(_ fields: ArraySlice<String>) -> FileStamp? {
        let values = fields.map { Int64($0) }
        guard values.count == 5, values.allSatisfy({ $0 != nil }) else { return nil }
        return FileStamp(size: values[0]!, modificationNanoseconds: values[1]!,
                         changeNanoseconds: values[2]!, inode: UInt64(bitPattern: values[3]!), device: UInt64(bitPattern: values[4]!))
    }

    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return text }
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
}
