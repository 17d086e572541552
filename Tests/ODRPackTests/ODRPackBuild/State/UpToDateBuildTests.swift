import Foundation
import Testing

@testable import ODRPackBuild
@testable import ODRPackCore
@testable import ODRPackPlatform

/// The build's fast path: an unchanged project prints the last build again, and no change slips past it.
extension BuildCommandTests {
    /// The build state of `project`'s `out` folder, in the cache folder `CommandRunner` gives the tool.
    func recordPath(_ project: TemporaryProject) -> String {
        let environment = [
            "ODRPACK_CACHE_DIR": FileManager.default.temporaryDirectory.appendingPathComponent("odrpack-test-cache")
                .path
        ]
        return BuildState.location(
            for: URL(fileURLWithPath: project.path("out")).standardizedFileURL.path, environment: environment)!.string
    }

    /// The state's metadata: unchanged when a build took the fast path (every other build writes it again).
    func recordStamp(_ project: TemporaryProject) -> FileStamp? { BuildState.stamp(at: FilePath(recordPath(project))) }

    /// Whether the state holds what the fast path needs to print the build again.
    func hasReplay(_ project: TemporaryProject) -> Bool {
        FileManager.default.contents(atPath: recordPath(project)).flatMap { BuildState.parse($0) }?.replay != nil
    }

    /// Builds into `out` with `--json`; tells whether the fast path answered.
    func buildChecked(
        _ project: TemporaryProject, _ extra: [String] = [], environment: [String: String] = [:],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> (output: CommandRunner.Output, replayed: Bool) {
        let before = recordStamp(project)
        let output = try build(project, "out", extra, environment: environment)
        #expect(output.status == 0, "\(output.stderr)", sourceLocation: sourceLocation)
        return (output, before != nil && recordStamp(project) == before)
    }

    func written(_ output: CommandRunner.Output) throws -> [String] { try buildInfo(output)["written"] ?? ["?"] }

    @Test func anUnchangedProjectPrintsTheLastBuildAgain() throws {
        let project = try gameProject()
        try project.manifest(
            try String(contentsOfFile: project.manifestPath, encoding: .utf8)
                .replacingOccurrences(
                    of: "resources:\n", with: "resources:\n  - {glob: \"Nothing/*.png\", tags: [level1]}\n"))
        // In-process, as `buildChecked` below: the fast path's inputs name the manifest and the tool that built.
        let out = project.path("out")
        let first = CommandRunner.runInProcess(["build", "-o", out], in: project.root)
        #expect(first.status == 0)
        #expect(first.stderr.contains("\(project.manifestPath):5:12: warning: glob 'Nothing/*.png' matches no file"))
        let stamp = recordStamp(project)
        #expect(stamp != nil)

        let second = CommandRunner.runInProcess(["build", "-o", out], in: project.root)
        #expect(recordStamp(project) == stamp)
        #expect(second.status == 0 && second.stderr == first.stderr)
        let lines = second.stdout.split(separator: "\n")
        #expect(lines.first == "Built 4 packs into \(out): 0 written, 4 unchanged")
        let sizes = { (text: String) in text.split(separator: "\n").last?.split(separator: ";").dropFirst().first }
        #expect(
            lines.count == 2 && lines[1].hasPrefix("  read 0 B, wrote 0 B;")
                && sizes(second.stdout) == sizes(first.stdout))

        // The replayed JSON document is the one the full path prints, byte for byte.
        let (fast, replayed) = try buildChecked(project)
        #expect(replayed)
        // The same bytes written again: the fast path cannot vouch for the tree, the full path reuses every pack.
        let scene = project.path("R/Level2/scene.json")
        try Data(contentsOf: URL(fileURLWithPath: scene)).write(to: URL(fileURLWithPath: scene))
        let (full, fullReplayed) = try buildChecked(project)
        #expect(!fullReplayed && hasReplay(project))
        #expect(fast.stdout == full.stdout)
        #expect(try written(fast) == [])
        #expect(try buildInfo(fast)["reused"]?.count == 4)
    }

    @Test func noChangeSlipsPastTheFastPath() throws {
        let project = try gameProject()
        let id = { (tags: [String]) in PackIdentity.id(bundleID: "com.example.build", tags: tags) }
        #expect(try written(try buildChecked(project).output).count == 4)
        #expect(try buildChecked(project).replayed)

        // Same size and modification time: only the change time tells, and it is enough.
        let music = project.path("R/Level1/music.caf")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: music))
        bytes[0] ^= 0xFF
        try TestSystem.keepingTimes(of: music) { try bytes.write(to: URL(fileURLWithPath: music)) }
        var (output, replayed) = try buildChecked(project)
        #expect(!replayed)
        #expect(try written(output) == [id(["level1"])])
        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: project.path("out/odrpack-manifest.json"))))
            as! [String: Any]
        let files = (manifest["packs"] as! [[String: Any]]).flatMap { $0["files"] as! [[String: Any]] }
        #expect(files.first { $0["path"] as? String == "Level1/music.caf" }?["sha256"] as? String == sha256Hex(bytes))
        #expect(try buildChecked(project).replayed)

        // A new untagged file changes the app-bundle count; a removed file rewrites its pack.
        try project.file("R/UI/new.json", "{}")
        (output, replayed) = try buildChecked(project)
        #expect(!replayed)
        #expect((try output.json()["appBundle"] as? [String: Any])?["files"] as? Int == 2)
        try FileManager.default.removeItem(atPath: project.path("R/Level2/Deep/texture.png"))
        (output, replayed) = try buildChecked(project)
        #expect(!replayed)
        #expect(try written(output) == [id(["level2"])])

        // The manifest's bytes, the options and the environment are inputs too.
        try project.manifest(try String(contentsOfFile: project.manifestPath, encoding: .utf8) + "# a comment\n")
        (output, replayed) = try buildChecked(project)
        #expect(!replayed)
        #expect(try written(output) == [])
        #expect(try buildChecked(project).replayed)
        (output, replayed) = try buildChecked(project, environment: ["SOURCE_DATE_EPOCH": "1000000"])
        #expect(!replayed)
        #expect(try written(output).count == 4)
        (output, replayed) = try buildChecked(project, ["--level", "9"])
        #expect(!replayed)
        #expect(try written(output).count == 4)
        (output, replayed) = try buildChecked(project, ["--url-prefix", "https://cdn.example.com/odr"])
        #expect(!replayed && FileManager.default.fileExists(atPath: project.path("out/AssetPackManifest.plist")))
        (output, replayed) = try buildChecked(project)
        #expect(!replayed && !FileManager.default.fileExists(atPath: project.path("out/AssetPackManifest.plist")))
        #expect(FileManager.default.fileExists(atPath: project.path("out/AssetPackManifestTemplate.plist")))
        #expect(try buildChecked(project).replayed)

        // Every output file is checked: a missing, a stray, a reappearing and a rewritten one.
        try FileManager.default.removeItem(atPath: project.path("out/odrpack-manifest.json"))
        #expect(try !buildChecked(project).replayed)
        #expect(FileManager.default.fileExists(atPath: project.path("out/odrpack-manifest.json")))
        try project.file("out/OnDemandResources/stray.assetpack", "x")
        (output, replayed) = try buildChecked(project)
        #expect(!replayed)
        // Not odrpack's: it stays (docs/build-output.md#ownership) until its owner removes it.
        #expect(try buildInfo(output)["removed"] == [])
        try FileManager.default.removeItem(atPath: project.path("out/OnDemandResources/stray.assetpack"))
        try project.file("out/AssetPackManifest.plist", "x")
        #expect(try !buildChecked(project).replayed)
        #expect(!FileManager.default.fileExists(atPath: project.path("out/AssetPackManifest.plist")))
        let archives = try FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources"))
            .sorted()
        let archive = URL(fileURLWithPath: project.path("out/OnDemandResources/" + archives[0]))
        var archiveBytes = try Data(contentsOf: archive)
        archiveBytes[archiveBytes.count / 2] ^= 0xFF
        try archiveBytes.write(to: archive)
        (output, replayed) = try buildChecked(project)
        #expect(!replayed)
        #expect(try written(output).count == 1)

        // A symbolic link turns the fast path off (its target is not in the snapshot) but never the build.
        try project.symlink("R/Level2/link.json", to: "scene.json")
        (output, replayed) = try buildChecked(project)
        #expect(!replayed && recordStamp(project) != nil && !hasReplay(project))
        #expect(try written(output) == [id(["level2"])])
        try project.file("R/Level2/scene.json", "{\"tile\": 9}\n")
        (output, replayed) = try buildChecked(project)
        #expect(!replayed)
        #expect(try written(output) == [id(["level2"])])
        try FileManager.default.removeItem(atPath: project.path("R/Level2/link.json"))
        #expect(try written(try buildChecked(project).output) == [id(["level2"])])
        #expect(try buildChecked(project).replayed)
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
    }

    /// A file whose times are not at least one tick before the moment the last build started reading may have
    /// changed again with the same times after it was read (git's racily-clean case; HFS+, FAT and network shares
    /// tick in seconds): it is read again, and the fast path does not vouch for the tree. Here the state says the
    /// build started reading in 1970, so every file is such a file.
    @Test func racilyCleanFilesAreReadAgain() throws {
        let project = try gameProject()
        #expect(try CommandRunner.run(["build", "-o", "out"], in: project.root).status == 0)
        let trusted = try CommandRunner.run(["build", "-o", "out", "--progress", "never"], in: project.root)
        #expect(trusted.stdout.contains("read 0 B"), "\(trusted.stdout)")
        var state = try #require(BuildState.parse(try Data(contentsOf: URL(fileURLWithPath: recordPath(project)))))
        let readStart = try #require(state.readStart)
        #expect(readStart.time != nil)
        state.readStart?.time = 1_000_000_000
        try Data(state.serialized()).write(to: URL(fileURLWithPath: recordPath(project)))
        let racy = try CommandRunner.run(["build", "-o", "out", "--progress", "never"], in: project.root)
        #expect(racy.status == 0)
        #expect(racy.stdout.contains("0 written, 4 unchanged"), "\(racy.stdout)")
        #expect(!racy.stdout.contains("read 0 B"), "\(racy.stdout)")
        // The state that build saved says it started reading now: its files are trusted again.
        let again = try CommandRunner.run(["build", "-o", "out", "--progress", "never"], in: project.root)
        #expect(again.stdout.contains("read 0 B"), "\(again.stdout)")
    }
}
