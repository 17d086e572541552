import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// SPEC 7, Bounded, for a Background Assets build: `verify` compares AssetPackTags.json (every path of every pack) and
/// each pack's ba-package manifest with the files a chunk at a time, never their whole text or a `JSONValue` a path.
@Suite(.serialized)
struct BoundedMemoryBackgroundAssetsTests {
    /// Measured 207 B a file (debug) for `verify`; regenerating the documents whole took 333.
    static let bytesPerFile = ["verify (background-assets)": 250]
    static let smallCount = 4_000
    static let largeCount = 34_000

    @Test func verifysMemoryGrowsByAFewHundredBytesAFile() throws {
        let small = try Self.peaks(files: Self.smallCount)
        let large = try Self.peaks(files: Self.largeCount)
        for (command, smallPeak) in small {
            let largePeak = try #require(large[command])
            let perFile = (largePeak - smallPeak) / (Self.largeCount - Self.smallCount)
            let bound = try #require(Self.bytesPerFile[command])
            #expect(
                perFile <= bound,
                "\(command): \(smallPeak / 1024) KB at \(Self.smallCount) files, \(largePeak / 1024) KB at \(Self.largeCount): \(perFile) bytes a file"
            )
        }
    }

    /// A project of `files` small files in 8 tags built for Background Assets with a packager that copies its manifest
    /// into the archive (the test stand-in reads every file, which would take minutes here), then verified.
    static func peaks(files: Int) throws -> [String: Int] {
        let project = FileManager.default.temporaryDirectory.appendingPathComponent(
            "odrpack-bounded-ba-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: project) }
        let worlds = 8
        var manifest = "version: 1\nbundle-id: com.example.bounded\nresources-root: Resources\nresources:\n"
        for world in 0..<worlds { manifest += "  - path: World\(world)\n    tags: [world\(world)]\n" }
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try manifest.write(to: project.appendingPathComponent("odrpack.yml"), atomically: false, encoding: .utf8)
        for index in 0..<files {
            let folder = "Resources/World\(index % worlds)/Levels/Chunk\(String(format: "%04d", index / 1000))"
            if index < worlds * 1000 || index % 1000 < worlds {
                try FileManager.default.createDirectory(
                    at: project.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            let name = project.path + "/\(folder)/level\(String(format: "%06d", index)).json"
            let descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            try #require(descriptor >= 0, "open \(name): \(errno)")
            let written = write(descriptor, "{}\n", 3)
            close(descriptor)
            try #require(written == 3, "write \(name)")
        }
        let packager = project.appendingPathComponent("packager").path
        try "#!/bin/sh\ncat \"$1\" > \"$3\"\n".write(toFile: packager, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: packager)
        let cache = project.appendingPathComponent("cache").path
        let out = project.appendingPathComponent("out").path
        let arguments = [
            "build", project.appendingPathComponent("odrpack.yml").path, "--format", "background-assets", "-o", out,
            "--ba-package", "'\(packager)' {manifest} -o {output}", "--progress", "never",
        ]
        _ = try ScaleTreePeak.peak(arguments, cache: cache)
        return ["verify (background-assets)": try ScaleTreePeak.peak(["verify", out], cache: cache)]
    }
}
