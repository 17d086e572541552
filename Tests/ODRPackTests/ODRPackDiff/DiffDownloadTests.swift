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

    /// The data a page was made from: the JSON in its `data` element.
    static func pageData(_ path: String) throws -> [String: Any] {
        let html = try String(contentsOfFile: path, encoding: .utf8)
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = Data(html[start.upperBound..<end.lowerBound].utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// One number for "downloaded again": the Markdown's and the page's figures are `--json`'s download bytes, the
    /// installed bytes second (docs/commands.md#diff).
    @Test func theMarkdownAndThePageLeadWithTheJSONDownloadFigures() throws {
        let project = try tests.project()
        try tests.build(project, "v1")
        try project.file("R/L2/c.json", String(repeating: "{\"tile\": 2}\n", count: 400))
        try tests.build(project, "v2")
        let (_, document) = try tests.diff(project)
        let summary = tests.summary(document)
        let download = try #require(summary["redownloadDownloadPrefetch"])
        let installed = try #require(summary["redownloadPrefetch"])
        #expect(installed == 4800 && download != installed)
        let level2 = try #require(tests.tag(document, "level2"))
        let level2Download = try #require(level2["redownloadDownloadSize"] as? Int)
        func format(_ bytes: Int) -> String { ByteCount.format(Int64(bytes)) }

        let markdown = try CommandRunner.run(["diff", "v1", "v2", "--markdown"], in: project.root).stdout
        #expect(markdown.contains("| prefetch | \(format(download)) | \(format(installed)) |\n"), "\(markdown)")
        #expect(
            markdown.contains(
                "| level2 | changed | prefetch | 300 B | 4.8 KB | +4.5 KB | \(format(level2Download)) | 4.8 KB | ~1 |\n"
            ),
            "\(markdown)")
        #expect(markdown.contains("| Download | Installed | Files"))
        #expect(!markdown.contains("Re-download"))

        let page = project.path("diff.html")
        #expect(try CommandRunner.run(["diff", "v1", "v2", "--html", page], in: project.root).status == 0)
        let data = try Self.pageData(page)
        let cards = try #require(data["headline"] as? [[String: Any]])
        #expect(cards.map { $0["category"] as? String } == ["initial-install", "prefetch", "on-demand"])
        #expect(cards.map { $0["download"] as? Int } == [0, download, 0])
        #expect(cards[1]["value"] as? String == format(download))
        #expect(cards[1]["label"] as? String == "prefetch downloaded again (\(format(installed)) installed)")
        // The page's pack and tag rows carry the same download bytes as the JSON's.
        let pagePack = (data["packs"] as? [[String: Any]])?.first { $0["id"] as? String == tests.id(["level2"]) }
        #expect(pagePack?["redownloadDownloadSize"] as? Int == level2Download)
        let pageTag = (data["tags"] as? [[String: Any]])?.first { $0["name"] as? String == "level2" }
        #expect(pageTag?["redownloadDownloadSize"] as? Int == level2Download)
        #expect(data["prefetchOrderNote"] is NSNull)
    }

    /// A tag moved in `prefetch-order` moves the priorities of the packs, whose files did not change: each says why it
    /// downloads again, and the text, the Markdown and the page say once that prefetch-order did it.
    @Test func aPrefetchOrderChangeSaysWhyUnchangedPacksDownloadAgain() throws {
        let project = try tests.project()
        try tests.build(project, "v1")
        try project.manifest(
            DiffCommandTests.baseManifest.replacingOccurrences(
                of: "prefetch-order: [level1, level2]", with: "prefetch-order: [level2, level1]"))
        try tests.build(project, "v2")
        let (output, document) = try tests.diff(project)
        #expect(output.status == 0)
        let moved = tests.packs(document).filter { $0["priority"] != nil }
        #expect(Set(moved.compactMap { $0["id"] as? String }) == [tests.id(["level1"]), tests.id(["level2"])])
        #expect(moved.allSatisfy { ($0["files"] as? [String: [String]])?.values.allSatisfy(\.isEmpty) == true })
        let note = "prefetch-order changed: the priorities of 2 packs moved, and devices download them again"
        let why = "no file changed, but its priority (0.95 → 0.05) changed, and its Info.plist holds it"
        let level1JSON = moved.first { $0["id"] as? String == tests.id(["level1"]) }
        #expect(level1JSON?["downloadReason"] as? String == why)
        #expect(
            level1JSON?["redownloadDownloadSize"] as? Int == (try archiveSizes(project, "v2"))[tests.id(["level1"])])
        #expect(tests.packs(document).first { $0["id"] as? String == tests.id(["boot"]) }?["downloadReason"] is NSNull)

        let text = try CommandRunner.run(["diff", "v1", "v2"], in: project.root).stdout
        #expect(text.components(separatedBy: note).count == 2, "\(text)")
        #expect(text.contains("  changed  level1 (300 B → 300 B, +0 B, prefetch, priority 0.95 → 0.05)\n"))
        #expect(text.contains("             downloaded again: \(why)\n"), "\(text)")

        let archives = try archiveSizes(project, "v2")
        let level1 = ByteCount.format(Int64(try #require(archives[tests.id(["level1"])])))
        let markdown = try CommandRunner.run(["diff", "v1", "v2", "--markdown"], in: project.root).stdout
        #expect(markdown.components(separatedBy: note).count == 2, "\(markdown)")
        #expect(
            markdown.contains("| level1 | changed | prefetch | 300 B | 300 B | +0 B | \(level1) | 300 B | \(why) |\n"))

        let page = project.path("diff.html")
        #expect(try CommandRunner.run(["diff", "v1", "v2", "--html", page], in: project.root).status == 0)
        let data = try Self.pageData(page)
        #expect(data["prefetchOrderNote"] as? String == note)
        let pack = (data["packs"] as? [[String: Any]])?.first { $0["id"] as? String == tests.id(["level1"]) }
        #expect(pack?["downloadReason"] as? String == why)
        #expect(pack?["filesText"] as? String == why)

        // A build of the same manifest moves no priority, and says nothing of the kind.
        try tests.build(project, "v3")
        let same = try CommandRunner.run(["diff", "v2", "v3"], in: project.root).stdout
        #expect(!same.contains("prefetch-order changed"))
    }
}
