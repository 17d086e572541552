import Foundation

/// What the libFuzzer targets under `Fuzz/` call: each reader of untrusted input, fed arbitrary bytes. A reader may
/// reject the input (a thrown error, diagnostics); it must never crash, hang or read out of bounds.
public enum FuzzEntryPoints {
    /// The tag manifest loader (YAML or JSON).
    public static func tagManifest(_ bytes: UnsafeRawBufferPointer) {
        _ = ManifestLoader().parse(data: Data(bytes), displayPath: "fuzz.yml", directory: URL(fileURLWithPath: "/nonexistent"))
    }

    /// A glob from the first line, matched against the second.
    public static func glob(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let pattern = GlobPattern(String(lines[0])) else { return }
        let path = lines.count > 1 ? String(lines[1]) : ""
        _ = pattern.matches(path)
        _ = pattern.couldMatch(filesIn: path.split(separator: "/").map(String.init))
    }

    /// odrpack-manifest.json, as diff and verify read it.
    public static func buildManifest(_ bytes: UnsafeRawBufferPointer) {
        _ = try? BuildManifest(json: bytes.bindMemory(to: UInt8.self))
    }

    /// The zip reader of verify and thin: front to back, then the central directory.
    public static func streamingZip(_ bytes: UnsafeRawBufferPointer) {
        let path = NSTemporaryDirectory() + "odrpack-fuzz-\(getpid()).zip"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        defer { unlink(path) }
        guard let reader = try? StreamingZipReader(path: path) else { return }
        while let entry = try? reader.nextEntry() {
            _ = entry
            if (try? reader.readData { _ in }) == nil { return }
        }
        _ = try? reader.centralDirectory()
    }

    /// The Xcode project reader (an old-style plist), as import-xcode reads project.pbxproj.
    public static func pbxproj(_ bytes: UnsafeRawBufferPointer) {
        let folder = NSTemporaryDirectory() + "odrpack-fuzz-\(getpid()).xcodeproj"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: folder + "/project.pbxproj", contents: Data(bytes)) else { return }
        if let project = try? XcodeProject(path: folder) { _ = project.targets }
    }
}
