import Foundation
import Testing

@testable import ODRPackBuild
@testable import ODRPackCore
@testable import ODRPackPlatform

/// `validate` names no output folder, yet a build of the same project already checked every file it packed for
/// executable content: the newest state in the cache folder recorded for the project's resources-root vouches for the
/// files whose metadata is as recorded, and validate reads only the others (docs/build-output.md#incremental).
@Suite struct RecordedChecksTests {
    /// The real disk, counting the files whose heads the executable-content check reads.
    struct CountingFileSystem: ResourceFileSystem {
        let read = Locked<[String]>([])
        let local = LocalFileSystem(jobs: 1)

        func resolvedPath(_ path: String) -> Result<String, SystemError> { local.resolvedPath(path) }
        func status(_ path: String, followingLinks: Bool) -> Result<FileStatus, SystemError> {
            local.status(path, followingLinks: followingLinks)
        }
        func scan(_ path: String) -> FileTree { local.scan(path) }
        func read(_ path: String, count: Int, at offset: Int64) -> Result<[UInt8], SystemError> {
            self.read.withLock { $0.append((path as NSString).lastPathComponent) }
            return local.read(path, count: count, at: offset)
        }
    }

    func project(files: Int = 6) throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest(
            "version: 1\nbundle-id: com.example.checked\nresources-root: R\nresources:\n  - {path: Levels, tags: [a]}\n"
        )
        for index in 0..<files { try project.file("R/Levels/level\(index).json", "{\"level\": \(index)}") }
        return project
    }

    /// The names of the files whose heads resolution reads with what the cache folder `cache` vouches for.
    func headsRead(_ project: TemporaryProject, cache: String) throws -> [String] {
        let manifest = try #require(try ManifestLoader().load(path: project.manifestPath).manifest)
        let fileSystem = CountingFileSystem()
        let resolution = ResourceResolver(
            manifest: manifest, fileSystem: fileSystem, outputMarker: BuildFolder.lockFileName,
            alreadyChecked: RecordedChecks.alreadyChecked(
                manifestPath: project.manifestPath, environment: ["ODRPACK_CACHE_DIR": cache])
        ).resolve()
        #expect(resolution.diagnostics.isEmpty)
        return fileSystem.read.withLock { $0 }.sorted()
    }

    func build(_ project: TemporaryProject, cache: String) throws {
        let built = try CommandRunner.run(
            ["build", "-o", "out", "--progress", "never"], in: project.root, environment: ["ODRPACK_CACHE_DIR": cache])
        #expect(built.status == 0, "\(built.stderr)")
    }

    @Test func filesABuildPackedAreNotReadAgain() throws {
        let project = try project()
        let cache = project.path("cache")
        let all = (0..<6).map { "level\($0).json" }
        // No build yet: every tagged file is read.
        #expect(try headsRead(project, cache: cache) == all)
        try build(project, cache: cache)
        #expect(try headsRead(project, cache: cache) == [])
        // A file written since is read again, alone.
        try project.file("R/Levels/level3.json", "{\"level\": 33}")
        #expect(try headsRead(project, cache: cache) == ["level3.json"])
        // Another project built later into the same cache folder does not vouch for this one's files.
        let other = try self.project()
        try build(other, cache: cache)
        #expect(try headsRead(project, cache: cache) == ["level3.json"])
        #expect(try headsRead(other, cache: cache) == [])
        // A cache folder others may write vouches for nothing.
        #expect(chmod(cache, 0o777) == 0)
        #expect(try headsRead(project, cache: cache) == all)
    }

    /// The state is found through the root's index file, which the last build of that resources-root wrote: one read
    /// however many states the cache folder holds. An index that names no state file, or another root's state, or
    /// no index at all, vouches for nothing.
    @Test func theRootsIndexNamesTheStateAndNothingElse() throws {
        let project = try project()
        let other = try self.project()
        let cache = project.path("cache")
        let environment = ["ODRPACK_CACHE_DIR": cache]
        let all = (0..<6).map { "level\($0).json" }
        try build(project, cache: cache)
        try build(other, cache: cache)
        let root = try LocalFileSystem().resolvedPath(project.path("R")).get()
        let index = try #require(BuildState.rootIndexLocation(forRoot: root, environment: environment)).string
        let state = try #require(BuildState.location(for: project.path("out"), environment: environment)).name
        #expect(try String(contentsOfFile: index, encoding: .utf8) == state)
        #expect(try headsRead(project, cache: cache) == [])

        let otherRoot = try LocalFileSystem().resolvedPath(other.path("R")).get()
        let otherIndex = try #require(BuildState.rootIndexLocation(forRoot: otherRoot, environment: environment)).string
        for named in [
            "../\(state)", "state",
            try String(contentsOfFile: otherIndex, encoding: .utf8),
        ] {
            try named.write(toFile: index, atomically: false, encoding: .utf8)
            #expect(try headsRead(project, cache: cache) == all, "\(named)")
        }
        try FileManager.default.removeItem(atPath: index)
        #expect(try headsRead(project, cache: cache) == all)
        #expect(try headsRead(other, cache: cache) == [])
    }

    /// What no state vouches for is still checked: a file given executable bytes after the build, and a new one.
    @Test func validateStillReportsExecutableContentTheBuildDidNotPack() throws {
        let project = try project()
        let cache = project.path("cache")
        try build(project, cache: cache)
        try project.file("R/Levels/level2.json", bytes: Data([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0]))
        try project.file("R/Levels/tool.macho", bytes: Data([0xCF, 0xFA, 0xED, 0xFE, 7, 0, 0, 1]))
        let validated = try CommandRunner.run(
            ["validate", "--json"], in: project.root, environment: ["ODRPACK_CACHE_DIR": cache])
        #expect(validated.status == 1, "\(validated.stderr)")
        let diagnostics = try validated.json()["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.map { $0["code"] as? String } == ["executable-content", "executable-content"])
        #expect(diagnostics.map { $0["subject"] as? String } == ["Levels/level2.json", "Levels/tool.macho"])
    }

    /// validate takes the record's word for a file whose metadata is as recorded: here a forged state records a file's
    /// metadata after executable bytes went into it, and validate, not reading it, passes (it would fail, reading).
    @Test func validateTrustsTheNewestBuildsRecord() throws {
        let project = try project()
        let cache = project.path("cache")
        try build(project, cache: cache)
        try project.file("R/Levels/level2.json", bytes: Data([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0]))
        let environment = ["ODRPACK_CACHE_DIR": cache]
        let location = try #require(BuildState.location(for: project.path("out"), environment: environment))
        var state = try #require(BuildState.read(location, fileRecords: true))
        let stamp = try #require(SystemCall.status(FilePath(project.path("R/Levels/level2.json")))?.stamp)
        var records = Array(state.files)
        let index = try #require(records.firstIndex { $0.path == "Levels/level2.json" })
        records[index].stamp = stamp
        state.files = FileRecords(records)
        state.readStart = ReadStart(time: .max, device: stamp.device, tick: 1)
        try state.write(to: location)
        let validated = try CommandRunner.run(["validate"], in: project.root, environment: environment)
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
        // Without the cache folder, the same file is read and is code.
        let cold = try CommandRunner.run(
            ["validate"], in: project.root, environment: ["ODRPACK_CACHE_DIR": project.path("empty")])
        #expect(cold.status == 1 && (cold.stdout + cold.stderr).contains("executable-content"), "\(cold.stderr)")
    }
}
