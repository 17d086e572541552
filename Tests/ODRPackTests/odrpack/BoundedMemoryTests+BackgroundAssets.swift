import Foundation
import Testing

/// SPEC 7, Bounded, for a Background Assets build: `verify` compares AssetPackTags.json (every path of every pack) and
/// each pack's ba-package manifest with the files a chunk at a time, never their whole text or a `JSONValue` a path.
@Suite(.fullLevel, .serialized, .tags(.slow, .memory, .endToEnd))
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

    /// A project of `files` small files in 8 tags (`ScaleTree`) built for Background Assets with a packager that copies its manifest
    /// into the archive (the test stand-in reads every file, which would take minutes here), then verified.
    static func peaks(files: Int) throws -> [String: Int] {
        let project = try ScaleTree(files: files).project
        defer { try? FileManager.default.removeItem(at: project) }
        let packager = project.appendingPathComponent("packager").path
        // The Apple Archive signature first: verify requires it (verify-ba-archive-format).
        try "#!/bin/sh\n{ printf AA01; cat \"$1\"; } > \"$3\"\n".write(
            toFile: packager, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: packager)
        let cache = project.appendingPathComponent("cache").path
        let out = project.appendingPathComponent("out").path
        let arguments = [
            "build", project.appendingPathComponent("odrpack.yml").path, "--format", "background-assets", "-o", out,
            "--ba-package", "'\(packager)' {manifest} -o {output}", "--progress", "never",
        ]
        _ = try ScaleTree.peak(arguments, cache: cache)
        return ["verify (background-assets)": try ScaleTree.peak(["verify", out], cache: cache)]
    }
}
