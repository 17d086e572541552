import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackDiff
import ODRPackFormats
import ODRPackPlatform
import ODRPackReport
import ODRPackVerify
import ODRPackXcode

/// What the libFuzzer targets under `Fuzz/` call: each reader of untrusted input, fed arbitrary bytes. A reader may
/// reject the input (a thrown error, diagnostics); it must never crash, hang or read out of bounds.
package enum FuzzEntryPoints {
    /// The tag manifest loader (YAML or JSON).
    package static func tagManifest(_ bytes: UnsafeRawBufferPointer) {
        _ = ManifestLoader().parse(
            data: Data(bytes), displayPath: "fuzz.yml", directory: URL(fileURLWithPath: "/nonexistent"))
    }

    /// A glob from the first line, matched against the second.
    package static func glob(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let pattern = GlobPattern(String(lines[0])) else { return }
        let path = lines.count > 1 ? String(lines[1]) : ""
        _ = pattern.matches(path)
        _ = pattern.couldMatch(filesIn: path.split(separator: "/").map(String.init))
    }

    /// odrpack-manifest.json, as diff and verify read it; a manifest it accepts is then checked as verify checks it
    /// and diffed against itself and against an empty build, both ways, into every diff output (text, JSON,
    /// Markdown, HTML).
    package static func buildManifest(_ bytes: UnsafeRawBufferPointer) {
        guard let manifest = try? BuildManifest(json: bytes.bindMemory(to: UInt8.self)) else { return }
        var empty = manifest
        empty.packs = []
        empty.tags = []
        for (old, new) in [(manifest, manifest), (empty, manifest), (manifest, empty)] {
            let diff = BuildDiff(old: old, new: new)
            _ = DiffReport.json(diff).serialized()
            _ = DiffReport.text(diff, old: "old", new: "new")
            _ = MarkdownReport.diff(diff)
            _ = DiffReportModel(diff: diff, old: old, new: new, oldName: "old", newName: "new").html
        }
        for pack in manifest.packs {
            _ = BuildVerifier.recordProblems(pack, bundleId: manifest.bundleId, format: manifest.format)
        }
    }

    /// The zip reader of verify and thin: front to back, then the central directory.
    package static func streamingZip(_ bytes: UnsafeRawBufferPointer) {
        let path = FilePath(NSTemporaryDirectory()).joined("odrpack-fuzz-\(SystemCall.processID).zip")
        guard FileManager.default.createFile(atPath: path.string, contents: Data(bytes)) else { return }
        defer { _ = SystemCall.removeFile(path) }
        guard let reader = try? StreamingZipReader(path: path) else { return }
        while let entry = try? reader.nextEntry() {
            _ = entry
            if (try? reader.readData { _ in }) == nil { return }
        }
        _ = try? reader.centralDirectory()
        // And from the end, as a build reads the last build's archive to copy its unchanged entries.
        if case .success(let descriptor) = SystemCall.openForReading(path) {
            _ = try? ZipCentralDirectory(descriptor: descriptor, fileSize: UInt64(bytes.count))
            _ = SystemCall.closeFile(descriptor)
        }
    }

    /// The Xcode project reader (an old-style plist), as import-xcode reads project.pbxproj.
    package static func pbxproj(_ bytes: UnsafeRawBufferPointer) {
        let folder = NSTemporaryDirectory() + "odrpack-fuzz-\(SystemCall.processID).xcodeproj"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: folder + "/project.pbxproj", contents: Data(bytes)) else { return }
        // Past the targets: every target's import, through path resolution (cycles, missing objects, odd types).
        guard let project = try? XcodeProject(path: folder) else { return }
        for (_, target) in project.targets.prefix(8) {
            var options = XcodeImporter.Options()
            options.target = target["name"] as? String
            options.settings = ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.fuzz"]
            _ = try? XcodeImporter(options: options).importProject(at: folder)
        }
    }

    /// The binary plist writer (Info.plist, ZipMetadata, the Apple manifests): a value built from the bytes is
    /// written, read back by Foundation's own reader, and must come back equal; a difference stops the fuzzer.
    package static func binaryPlist(_ bytes: UnsafeRawBufferPointer) {
        if let mismatch = binaryPlistMismatch(bytes) { fatalError(mismatch) }
    }

    /// What is wrong with the binary plist written for the value the bytes make, or nil when it reads back equal.
    static func binaryPlistMismatch(_ bytes: UnsafeRawBufferPointer) -> String? {
        var input = FuzzInput(bytes)
        let value = input.propertyList(depth: 0)
        let data = value.binaryData()
        guard let decoded = try? PropertyListSerialization.propertyList(from: data, format: nil) else {
            return "Foundation cannot read the binary plist written for \(value)"
        }
        return PropertyListValue.matches(decoded, value) ? nil : "the binary plist of \(value) reads back as \(decoded)"
    }
}

extension PropertyListValue {
    /// Whether what Foundation read is this value. Booleans and integers are compared by kind too: a boolean that
    /// reads back as the integer 1 (or the reverse) is a mismatch, never equal through `boolValue`.
    static func matches(_ decoded: Any, _ value: PropertyListValue) -> Bool {
        switch value {
        case .bool, .int: return PropertyListValue(foundation: decoded) == value
        case .real(let number): return (decoded as? NSNumber)?.doubleValue.bitPattern == number.bitPattern
        case .string(let text): return (decoded as? String) == text
        case .data(let bytes): return (decoded as? Data).map { [UInt8]($0) } == bytes
        case .date(let seconds): return (decoded as? Date)?.timeIntervalSinceReferenceDate == seconds
        case .array(let items):
            guard let list = decoded as? [Any], list.count == items.count else { return false }
            return zip(list, items).allSatisfy { matches($0, $1) }
        case .dictionary(let entries):
            guard let dictionary = decoded as? [String: Any], dictionary.count == entries.count else { return false }
            return entries.allSatisfy { key, item in dictionary[key].map { matches($0, item) } ?? false }
        }
    }
}
