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
        let result = try CommandRunner.run(["build", "-o", output], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
    }

    func diff(_ project: TemporaryProject, _ extra: [String] = [], old: String = "v1", new: String = "v2") throws -> (
        CommandRunner.Output, [String: Any]
    ) {
        let output = try CommandRunner.run(["diff", old, new, "--json"] + extra, in: project.root)
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
        #expect(
            summary(document) == [
                "packsChanged": 1, "packsTotal": 4, "redownloadInitialInstall": 0,
                "redownloadPrefetch": 310, "redownloadOnDemand": 0,
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
}
