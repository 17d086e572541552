import Foundation
import Testing

/// Paths are bytes everywhere (docs/manifest.md#tags, 3.5): NFC `café` and NFD `café` are two files for entries, packs, verify and
/// diff, and one pack holding both gets `normalization-collision`. Swift's `String` equality is canonical, so each
/// of these once took the two for one.
@Suite struct UnicodePathTests {
    static let nfc = "caf\u{E9}.txt", nfd = "cafe\u{301}.txt"

    /// The project, or nil where the file system keeps only one of the two names (APFS and HFS+ normalize).
    func project(_ entries: String) throws -> TemporaryProject? {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.unicode\nresources-root: R\nresources:\n" + entries)
        try project.file("R/" + Self.nfc, "composed")
        try project.file("R/" + Self.nfd, "decomposed")
        let names = try FileManager.default.contentsOfDirectory(atPath: project.path("R")).map { Array($0.utf8) }
        guard names.contains(Array(Self.nfc.utf8)) && names.contains(Array(Self.nfd.utf8)) else { return nil }
        return project
    }

    func packs(_ project: TemporaryProject, _ folder: String = "out") throws -> [[String: Any]] {
        let data = try Data(contentsOf: project.root.appendingPathComponent(folder + "/odrpack-manifest.json"))
        let document = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return document["packs"] as? [[String: Any]] ?? []
    }

    @Test func pathEntriesTagTheNameAsSpelled() throws {
        guard
            let project = try project(
                "  - {path: \"\(Self.nfc)\", tags: [composed]}\n  - {path: \"\(Self.nfd)\", tags: [decomposed]}\n")
        else { return }
        let result = try project.plan()
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.pack(tags: ["composed"])?.files.map { Array($0.path.utf8) } == [Array(Self.nfc.utf8)])
        #expect(result.pack(tags: ["decomposed"])?.files.map { Array($0.path.utf8) } == [Array(Self.nfd.utf8)])
    }

    @Test func onePackHoldsBothVerifiesAndDiffsByBytes() throws {
        guard let project = try project("  - {glob: \"*.txt\", tags: [both]}\n") else { return }
        let build = try CommandRunner.run(["build", "-o", "out", "--json"], in: project.root)
        #expect(build.status == 0, "\(build.stderr)")
        let codes = (try build.json()["diagnostics"] as? [[String: Any]] ?? []).map { $0["code"] as? String }
        #expect(codes == ["normalization-collision"])
        let files = try #require(try packs(project).first?["files"] as? [[String: Any]])
        #expect(files.map { Array(($0["path"] as! String).utf8) } == [Array(Self.nfd.utf8), Array(Self.nfc.utf8)])
        // verify accepts its own build, and still tells the two apart.
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
        try FileManager.default.copyItem(atPath: project.path("out"), toPath: project.path("old"))
        try project.file("R/" + Self.nfd, "decomposed, changed")
        #expect(try CommandRunner.run(["build", "-o", "out"], in: project.root).status == 0)
        let diff = try CommandRunner.run(["diff", "old", "out", "--json"], in: project.root)
        let changed = try #require((try diff.json()["packs"] as? [[String: Any]])?.first)
        #expect(changed["status"] as? String == "changed")
        let modified = (changed["files"] as? [String: Any])?["modified"] as? [String]
        #expect(modified.map { $0.map { Array($0.utf8) } } == [Array(Self.nfd.utf8)])
    }
}
