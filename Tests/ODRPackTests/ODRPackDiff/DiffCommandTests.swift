import Foundation
import Testing

@testable import ODRPackCore

/// `odrpack diff` on two builds of generated projects, through the binary.
@Suite struct DiffCommandTests {
    static let baseManifest = """
        version: 1
        bundle-id: com.example.diff
        resources-root: R
        resources:
          - {path: L1, tags: [level1]}
          - {path: L2, tags: [level2]}
          - {path: Shared/both.png, tags: [level1, level2]}
          - {path: Boot, tags: [boot]}
        initial-install: [boot]
        prefetch-order: [level1, level2]

        """

    func project() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest(Self.baseManifest)
        try project.file("R/L1/a.json", String(repeating: "a", count: 100))
        try project.file("R/L1/b.json", String(repeating: "b", count: 200))
        try project.file("R/L2/c.json", String(repeating: "c", count: 300))
        try project.file("R/Shared/both.png", String(repeating: "s", count: 1000))
        try project.file("R/Boot/boot.json", String(repeating: "x", count: 50))
        return project
    }

    func build(_ project: TemporaryProject, _ output: String) throws {
        let result = CommandRunner.runInProcess(["build", "-o", project.path(output)], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
    }

    func diff(_ project: TemporaryProject, _ extra: [String] = [], old: String = "v1", new: String = "v2") throws -> (
        CommandRunner.Output, [String: Any]
    ) {
        let output = CommandRunner.runInProcess(
            ["diff", project.path(old), project.path(new), "--json"] + extra, in: project.root)
        return (output, (try? output.json()) ?? [:])
    }

    func packs(_ document: [String: Any]) -> [[String: Any]] { document["packs"] as? [[String: Any]] ?? [] }
    func tag(_ document: [String: Any], _ name: String) -> [String: Any]? {
        (document["tags"] as? [[String: Any]])?.first { $0["name"] as? String == name }
    }
    func summary(_ document: [String: Any]) -> [String: Int] { document["summary"] as? [String: Int] ?? [:] }
    func id(_ tags: [String]) -> String { PackIdentity.id(bundleID: "com.example.diff", tags: tags) }

    @Test func oneEditedFileChangesOnePack() throws {
        let project = try project()
        try build(project, "v1")
        try project.file("R/L2/c.json", String(repeating: "C", count: 310))
        try build(project, "v2")
        let (output, document) = try diff(project, ["--exit-code"])
        #expect(output.status == 1)
        let changed = packs(document).filter { $0["status"] as? String != "unchanged" }
        #expect(changed.count == 1)
        #expect(changed.first?["id"] as? String == id(["level2"]))
        #expect(changed.first?["oldSize"] as? Int == 300 && changed.first?["newSize"] as? Int == 310)
        #expect((changed.first?["files"] as? [String: [String]])?["modified"] == ["L2/c.json"])
        #expect(packs(document).count == 4)
        #expect(tag(document, "level2")?["redownloadSize"] as? Int == 310)
        #expect(tag(document, "level2")?["status"] as? String == "changed")
        #expect(tag(document, "level1")?["redownloadSize"] as? Int == 0)
        #expect(tag(document, "level1")?["status"] as? String == "unchanged")
        // The download figures are the new archive's bytes (DiffDownloadTests checks them against the manifest).
        let download = try #require(summary(document)["redownloadDownloadPrefetch"])
        #expect(download > 310)  // a 310-byte file in a zip with its Info.plist
        #expect(
            summary(document) == [
                "packsChanged": 1, "packsTotal": 4, "redownloadInitialInstall": 0,
                "redownloadPrefetch": 310, "redownloadOnDemand": 0, "redownloadDownloadInitialInstall": 0,
                "redownloadDownloadPrefetch": download, "redownloadDownloadOnDemand": 0,
            ])
        let human = try CommandRunner.run(["diff", "v1", "v2"], in: project.root)
        #expect(human.status == 0)
        #expect(human.stdout.contains("1 of 4 packs changed"))
        #expect(human.stdout.contains("modified: L2/c.json"))
    }

    @Test func aRetaggedFileIsAMoveNotAnAddAndARemove() throws {
        let project = try project()
        try build(project, "v1")
        try project.manifest(
            Self.baseManifest.replacingOccurrences(
                of: "  - {path: Boot, tags: [boot]}\n",
                with: "  - {path: Boot, tags: [boot]}\n  - {path: L1/b.json, tags: [level2]}\n"))
        try build(project, "v2")
        let (_, document) = try diff(project)
        let moves = try #require(document["moves"] as? [[String: Any]])
        #expect(moves.count == 1)
        #expect(moves.first?["path"] as? String == "L1/b.json")
        #expect(moves.first?["fromPack"] as? String == id(["level1"]))
        #expect(moves.first?["toPack"] as? String == id(["level1", "level2"]))
        for pack in packs(document) {
            let files = pack["files"] as? [String: [String]] ?? [:]
            #expect(!(files["added"] ?? []).contains("L1/b.json"))
            #expect(!(files["removed"] ?? []).contains("L1/b.json"))
        }
        let statuses = Dictionary(
            uniqueKeysWithValues: packs(document).map { ($0["id"] as! String, $0["status"] as! String) })
        #expect(statuses[id(["level1"])] == "changed")
        #expect(statuses[id(["level1", "level2"])] == "changed")
    }

    @Test func anAddedLevelAndARemovedTag() throws {
        let project = try project()
        try build(project, "v1")
        try project.file("R/L3/d.json", String(repeating: "d", count: 77))
        try project.manifest(
            Self.baseManifest
                .replacingOccurrences(of: "  - {path: L2, tags: [level2]}\n", with: "  - {path: L3, tags: [level3]}\n")
                .replacingOccurrences(
                    of: "  - {path: Shared/both.png, tags: [level1, level2]}\n",
                    with: "  - {path: Shared/both.png, tags: [level1]}\n"
                )
                .replacingOccurrences(of: "prefetch-order: [level1, level2]", with: "prefetch-order: [level1]"))
        try build(project, "v2")
        let (_, document) = try diff(project)
        let statuses = Dictionary(
            uniqueKeysWithValues: packs(document).map { ($0["id"] as! String, $0["status"] as! String) })
        #expect(statuses[id(["level3"])] == "added")
        #expect(statuses[id(["level2"])] == "removed")
        #expect(tag(document, "level3")?["status"] as? String == "added")
        #expect(tag(document, "level3")?["redownloadSize"] as? Int == 77)
        #expect(tag(document, "level2")?["status"] as? String == "removed")
        #expect(tag(document, "level2")?["redownloadSize"] as? Int == 0)
    }

    @Test func touchedFilesAndIdenticalBuildsAreNoChange() throws {
        let project = try project()
        try build(project, "v1")
        for file in ["R/L1/a.json", "R/L2/c.json"] { TestSystem.setTimes(project.path(file), seconds: 1_800_000_000) }
        try build(project, "v2")
        let (output, document) = try diff(project, ["--exit-code"])
        #expect(output.status == 0)
        #expect(summary(document)["packsChanged"] == 0)
        #expect(packs(document).allSatisfy { $0["status"] as? String == "unchanged" })
        #expect((document["moves"] as? [Any])?.isEmpty == true)
        let same = try CommandRunner.run(["diff", "v1", "v1/odrpack-manifest.json", "--exit-code"], in: project.root)
        #expect(same.status == 0)
        #expect(same.stdout.contains("No pack, tag or file changed."))
    }

    @Test func aSharedPackCountsForBothTagsButOnceInTheCategory() throws {
        let project = try project()
        try build(project, "v1")
        try project.file("R/Shared/both.png", String(repeating: "S", count: 1001))
        try build(project, "v2")
        let (_, document) = try diff(project)
        #expect(tag(document, "level1")?["redownloadSize"] as? Int == 1001)
        #expect(tag(document, "level2")?["redownloadSize"] as? Int == 1001)
        #expect(summary(document)["redownloadPrefetch"] == 1001)
        #expect(summary(document)["packsChanged"] == 1)
    }

    @Test func badInputsExitTwo() throws {
        let project = try project()
        try build(project, "v1")
        #expect(try CommandRunner.run(["diff", "v1", "missing"], in: project.root).status == 2)
        try project.folder("empty")
        let empty = try CommandRunner.run(["diff", "v1", "empty"], in: project.root)
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("odrpack-manifest.json"))
        let text = try String(contentsOfFile: project.path("v1/odrpack-manifest.json"), encoding: .utf8)
        try project.file("truncated.json", String(text.prefix(text.count / 2)))
        let truncated = try CommandRunner.run(["diff", "v1", "truncated.json"], in: project.root)
        #expect(truncated.status == 2)
        #expect(truncated.stderr.contains("not valid JSON"))
        try project.file(
            "future.json", text.replacingOccurrences(of: "\"schemaVersion\": 1", with: "\"schemaVersion\": 2"))
        let future = try CommandRunner.run(["diff", "v1", "future.json"], in: project.root)
        #expect(future.status == 2)
        #expect(future.stderr.contains("schemaVersion 2"))
        try project.file(
            "other.json",
            text.replacingOccurrences(
                of: "\"bundleId\": \"com.example.diff\"", with: "\"bundleId\": \"com.example.other\""))
        let other = try CommandRunner.run(["diff", "v1", "other.json"], in: project.root)
        #expect(other.status == 2)
        #expect(other.stderr.contains("different apps"))
        try project.file("partial.json", "{\"schemaVersion\": 1, \"bundleId\": \"com.example.diff\"}")
        #expect(try CommandRunner.run(["diff", "v1", "partial.json"], in: project.root).status == 2)
    }
    /// Moving a tag into initial-install changes what every new install downloads: the pack's category and priority
    /// (and its archive, whose Info.plist holds the priority) differ, so the pack is changed (docs/commands.md#diff).
    @Test func aTagMovedIntoInitialInstallIsAChange() throws {
        let project = try project()
        try build(project, "v1")
        try project.manifest(
            Self.baseManifest.replacingOccurrences(
                of: "initial-install: [boot]", with: "initial-install: [boot, level2]"
            )
            .replacingOccurrences(of: "prefetch-order: [level1, level2]", with: "prefetch-order: [level1]"))
        try build(project, "v2")
        let (output, document) = try diff(project, ["--exit-code"])
        #expect(output.status == 1)
        let level2 = try #require(packs(document).first { $0["id"] as? String == id(["level2"]) })
        #expect(level2["status"] as? String == "changed")
        #expect(level2["category"] as? [String: String] == ["old": "prefetch", "new": "initial-install"])
        let priority = try #require(level2["priority"] as? [String: Double])
        #expect(priority["old"] == 0.05 && priority["new"] == 1.0)
        #expect((level2["files"] as? [String: [String]]) == ["added": [], "removed": [], "modified": []])
        #expect(level2["redownloadSize"] as? Int == 300)
        // level1 keeps its category, but as the only prefetch tag its priority goes from 0.95 to 0.5.
        let level1 = try #require(packs(document).first { $0["id"] as? String == id(["level1"]) })
        #expect(level1["status"] as? String == "changed")
        #expect(level1["category"] as? String == "prefetch")
        let level1Priority = try #require(level1["priority"] as? [String: Double])
        #expect(abs((level1Priority["old"] ?? 0) - 0.95) < 1e-9 && level1Priority["new"] == 0.5)
        // The boot pack did not change: no priority object, its category a string.
        let boot = try #require(packs(document).first { $0["id"] as? String == id(["boot"]) })
        #expect(boot["status"] as? String == "unchanged")
        #expect(boot["category"] as? String == "initial-install")
        #expect(boot["priority"] == nil)
        #expect(summary(document)["packsChanged"] == 3)
        #expect(summary(document)["redownloadInitialInstall"] == 1300)

        let text = try CommandRunner.run(["diff", "v1", "v2"], in: project.root)
        #expect(!text.stdout.contains("No pack, tag or file changed"))
        #expect(text.stdout.contains("level2 (300 B → 300 B, +0 B, prefetch → initial-install, priority 0.05 → 1)"))
        let markdown = try CommandRunner.run(["diff", "v1", "v2", "--markdown"], in: project.root)
        let archive = try #require(try DiffDownloadTests().archiveSizes(project, "v2")[id(["level2"])])
        #expect(
            markdown.stdout.contains(
                """
                | level2 | changed | prefetch → initial-install | 300 B | 300 B | +0 B | \
                \(ByteCount.format(Int64(archive))) | 300 B | no file changed, but its category (prefetch → \
                initial-install) and priority (0.05 → 1) changed, and its Info.plist holds both |
                """), "\(markdown.stdout)")
    }

    /// SPEC 8: a changed priority is said in the Markdown also when the pack's files changed with it (no reason line
    /// then says it), as the text does.
    @Test func theMarkdownSaysAPriorityThatChangedWithTheFiles() throws {
        let project = try project()
        try build(project, "v1")
        try project.file("R/L1/a.json", String(repeating: "A", count: 102))
        try project.manifest(
            Self.baseManifest.replacingOccurrences(
                of: "prefetch-order: [level1, level2]", with: "prefetch-order: [level2, level1]"))
        try build(project, "v2")
        let text = try CommandRunner.run(["diff", "v1", "v2"], in: project.root).stdout
        #expect(text.contains("level1 (300 B → 302 B, +2 B, prefetch, priority 0.95 → 0.05)"), "\(text)")
        let markdown = try CommandRunner.run(["diff", "v1", "v2", "--markdown"], in: project.root).stdout
        #expect(
            markdown.contains("| level1 | changed | prefetch, priority 0.95 → 0.05 | 300 B | 302 B | +2 B | "),
            "\(markdown)")
    }

    /// Sizes with their difference, and the files of a pack changed only by moves counted as moves, never 0/0/0.
    @Test func sizesShowTheirDifferenceAndMovesAreCounted() throws {
        let project = try project()
        try build(project, "v1")
        try project.file("R/L2/c.json", String(repeating: "C", count: 302))
        try project.manifest(
            Self.baseManifest.replacingOccurrences(
                of: "  - {path: Boot, tags: [boot]}\n",
                with: "  - {path: Boot, tags: [boot]}\n  - {path: L1/b.json, tags: [level2]}\n"))
        try build(project, "v2")
        let text = try CommandRunner.run(["diff", "v1", "v2"], in: project.root)
        #expect(text.stdout.contains("level2 (300 B → 302 B, +2 B, prefetch)"), "\(text.stdout)")
        #expect(text.stdout.contains("level1 (300 B → 100 B, -200 B, prefetch)"))
        #expect(text.stdout.contains("moved out: L1/b.json"))
        #expect(text.stdout.contains("moved in: L1/b.json"))
        let markdown = try CommandRunner.run(["diff", "v1", "v2", "--markdown"], in: project.root)
        let archives = try DiffDownloadTests().archiveSizes(project, "v2")
        func archive(_ tags: [String]) -> String { ByteCount.format(Int64(archives[id(tags)] ?? -1)) }
        #expect(
            markdown.stdout.contains(
                "| level1 | changed | prefetch | 300 B | 100 B | -200 B | \(archive(["level1"])) | 100 B | 1 moved out |"
            ))
        #expect(
            markdown.stdout.contains(
                """
                | level1+level2 | changed | prefetch | 1 KB | 1.2 KB | +200 B | \(archive(["level1", "level2"])) | \
                1.2 KB | 1 moved in |
                """))
        #expect(
            markdown.stdout.contains(
                "| level2 | changed | prefetch | 300 B | 302 B | +2 B | \(archive(["level2"])) | 302 B | ~1 |"))
        #expect(!markdown.stdout.contains("0/0/0"))
        let page = project.path("diff.html")
        #expect(try CommandRunner.run(["diff", "v1", "v2", "--html", page], in: project.root).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("\"filesText\": \"1 moved out\""))
        #expect(html.contains("\"sizeChange\": \"-200 B\""))
        // The page's category bars are each category's bytes downloaded again out of its bytes in the new build.
        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: project.path("v2/odrpack-manifest.json"))))
            as? [String: Any]
        var totals: [String: Int] = [:]
        for pack in manifest?["packs"] as? [[String: Any]] ?? [] {
            totals[pack["category"] as? String ?? "", default: 0] += pack["size"] as? Int ?? 0
        }
        #expect(
            html.contains(
                """
                "categoryTotals": {
                    "initial-install": \(totals["initial-install"] ?? 0),
                    "prefetch": \(totals["prefetch"] ?? 0),
                    "on-demand": \(totals["on-demand"] ?? 0)
                  }
                """), "\(totals)")
        #expect((totals["prefetch"] ?? 0) > 0)
    }
}
