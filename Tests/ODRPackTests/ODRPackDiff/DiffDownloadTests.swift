import Foundation
import Testing

@testable import ODRPackCore

/// docs/commands.md#diff (SPEC 6.2, "What devices download"): the bytes a device downloads again are archive bytes
/// where the builds hold archives, resource bytes (said so) for a folder layout.
@Suite struct DiffDownloadTests {
    let tests = DiffCommandTests()

    /// Each pack's `archiveSize` in a build manifest, by pack id.
    func archiveSizes(_ project: TemporaryProject, _ build: String) throws -> [String: Int] {
        let data = try Data(contentsOf: URL(fileURLWithPath: project.path("\(build)/odrpack-manifest.json")))
        let document = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        var sizes: [String: Int] = [:]
        for pack in document["packs"] as? [[String: Any]] ?? [] {
            sizes[pack["id"] as! String] = pack["archiveSize"] as? Int
        }
        return sizes
    }

    @Test func downloadBytesAreTheNewArchives() throws {
        let project = try tests.project()
        try tests.build(project, "v1")
        // Text compresses: the archive a device fetches is smaller than the resource bytes.
        try project.file("R/L2/c.json", String(repeating: "{\"tile\": 2}\n", count: 400))
        try tests.build(project, "v2")
        let (output, document) = try tests.diff(project)
        #expect(output.status == 0)
        let archives = try archiveSizes(project, "v2")
        let level2 = try #require(archives[tests.id(["level2"])])
        #expect(tests.tag(document, "level2")?["redownloadDownloadSize"] as? Int == level2)
        #expect(tests.tag(document, "level2")?["redownloadSize"] as? Int == 4800)
        #expect(level2 < 4800)
        #expect(tests.tag(document, "level1")?["redownloadDownloadSize"] as? Int == 0)
        #expect(tests.summary(document)["redownloadDownloadPrefetch"] == level2)
        #expect(tests.summary(document)["redownloadPrefetch"] == 4800)
        // The text leads with the download bytes, the installed ones beside them.
        let text = try CommandRunner.run(["diff", "v1", "v2"], in: project.root)
        let size = ByteCount.format(Int64(level2))
        #expect(
            text.stdout.contains(
                "devices download again: initial-install 0 B (0 B installed), prefetch \(size) (4.8 KB installed), on-demand 0 B (0 B installed)\n"
            ), "\(text.stdout)")
        #expect(!text.stdout.contains("Folder layout"))
    }

    @Test func aFolderLayoutDownloadsItsResourceBytesAndSaysSo() throws {
        let project = try tests.project()
        #expect(try CommandRunner.run(["build", "-o", "v1", "--layout", "folder"], in: project.root).status == 0)
        try project.file("R/L2/c.json", String(repeating: "{\"tile\": 2}\n", count: 400))
        #expect(try CommandRunner.run(["build", "-o", "v2", "--layout", "folder"], in: project.root).status == 0)
        let (output, document) = try tests.diff(project)
        #expect(output.status == 0)
        #expect(tests.tag(document, "level2")?["redownloadDownloadSize"] as? Int == 4800)
        #expect(tests.summary(document)["redownloadDownloadPrefetch"] == 4800)
        let text = try CommandRunner.run(["diff", "v1", "v2"], in: project.root)
        #expect(text.stdout.contains("Folder layout: no archives, so the download figures are the resource bytes\n"))
        let markdown = try CommandRunner.run(["diff", "v1", "v2", "--markdown"], in: project.root)
        #expect(markdown.stdout.contains("| level2 | changed | prefetch | 4.8 KB | 4.8 KB |\n"))
    }
}
