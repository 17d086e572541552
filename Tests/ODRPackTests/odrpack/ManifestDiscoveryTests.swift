import Foundation
import Testing

/// docs/commands.md#scripts (SPEC 6.2, "Finding the manifest"): with no MANIFEST, odrpack.yml is looked for in the
/// current folder and each parent up to the first that holds `.git`, as cargo and git do.
@Suite struct ManifestDiscoveryTests {
    /// repo/.git, repo/game/odrpack.yml with resources under repo/game/Resources/Levels/World1.
    func repository() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.folder("repo/.git")
        try project.file(
            "repo/game/odrpack.yml",
            "version: 1\nbundle-id: com.example.found\nresources-root: Resources\nresources:\n"
                + "  - {path: Levels/World1, tags: [world1]}\n  - {path: Levels/Missing, tags: [gone]}\n")
        try project.file("repo/game/Resources/Levels/World1/map.json", "{}")
        return project
    }

    /// From two levels down: the manifest above is read, its paths relative to its own folder, and every printed path
    /// relative to the current folder.
    @Test func aManifestTwoLevelsUpIsFound() throws {
        let project = try repository()
        let here = project.root.appendingPathComponent("repo/game/Resources/Levels")
        let plan = try CommandRunner.run(["plan", "--json"], in: here)
        #expect(plan.status == 1)
        let document = try plan.json()
        #expect(document["bundleId"] as? String == "com.example.found")
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["path-not-found"])
        #expect(diagnostics.first?["file"] as? String == "../../odrpack.yml")
        let validate = try CommandRunner.run(["validate"], in: here)
        #expect(validate.status == 1)
        // The manifest found above is named first (a note), then its problems.
        let found = project.root.appendingPathComponent("repo/game/odrpack.yml").path
        #expect(
            validate.stderr.hasPrefix(
                """
                odrpack: note: using '../../odrpack.yml' ('\(found)'): there is no odrpack.yml in the current folder
                ../../odrpack.yml:6:12: error: path 'Levels/Missing' does not exist
                """))
        #expect(validate.stdout.hasPrefix("../../odrpack.yml: "))
        // build finds it too, and writes where --output says, relative to the current folder.
        try project.file(
            "repo/game/odrpack.yml",
            "version: 1\nbundle-id: com.example.found\nresources-root: Resources\nresources:\n"
                + "  - {path: Levels/World1, tags: [world1]}\n")
        let build = try CommandRunner.run(["build", "-o", "out"], in: here)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(FileManager.default.fileExists(atPath: here.appendingPathComponent("out/odrpack-manifest.json").path))
        let report = try CommandRunner.run(["report", "-o", "r.html"], in: here)
        #expect(report.status == 0)
        #expect(FileManager.default.fileExists(atPath: here.appendingPathComponent("r.html").path))
    }

    /// The search stops at the folder that holds `.git`: a manifest above it belongs to something else, and is named
    /// instead of suggesting `odrpack init`.
    @Test func theSearchStopsAtTheRepositoryRoot() throws {
        let project = try TemporaryProject()
        try project.file("odrpack.yml", "version: 1\nbundle-id: com.example.outer\nresources: []\n")
        try project.folder("inner/.git")
        try project.folder("inner/Assets/Sounds")
        let here = project.root.appendingPathComponent("inner/Assets/Sounds")
        let output = try CommandRunner.run(["plan"], in: here)
        #expect(output.status == 2)
        let root = project.root.path
        #expect(
            output.stderr
                == """
                odrpack: error: no odrpack.yml in '\(root)/inner/Assets/Sounds', '\(root)/inner/Assets', \
                '\(root)/inner' (the search stops at '\(root)/inner', which holds .git): '\(root)/odrpack.yml' lies \
                outside this repository; pass its path as MANIFEST, or run from a folder inside it

                """)
        #expect(!output.stderr.contains("odrpack init"))
    }

    /// Nothing anywhere: the folders searched, and `odrpack init`.
    @Test func noneFoundSuggestsInit() throws {
        let project = try TemporaryProject()
        try project.folder("game/.git")
        try project.folder("game/Art")
        let here = project.root.appendingPathComponent("game/Art")
        let root = project.root.path
        for command in [["plan"], ["validate"], ["build", "-o", "out"], ["report"]] {
            let output = try CommandRunner.run(command, in: here)
            #expect(output.status == 2, "\(command)")
            #expect(
                output.stderr
                    == """
                    odrpack: error: no odrpack.yml in '\(root)/game/Art', '\(root)/game' (the search stops at \
                    '\(root)/game', which holds .git): run `odrpack init` to write one, or pass the manifest's path \
                    as MANIFEST

                    """, "\(command)")
        }
        #expect(!FileManager.default.fileExists(atPath: here.appendingPathComponent("out").path))
    }

    /// A MANIFEST given is read as given, never searched for.
    @Test func aGivenManifestIsNotSearchedFor() throws {
        let project = try repository()
        let here = project.root.appendingPathComponent("repo/game/Resources")
        let output = try CommandRunner.run(["plan", "odrpack.yml"], in: here)
        #expect(output.status == 2)
        #expect(output.stderr.hasPrefix("odrpack: error: no manifest at 'odrpack.yml'"))
    }
}
