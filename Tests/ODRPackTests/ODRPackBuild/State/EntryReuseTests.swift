import Foundation
import Testing

@testable import ODRPackBuild
@testable import ODRPackBuildFormat
@testable import ODRPackCore
@testable import ODRPackPlatform

/// A rewritten pack copies its unchanged entries from the last build's archives (docs/build-output.md#incremental): every way
/// a pack can change must give the bytes of a clean build, and read from the resources only what changed.
@Suite struct EntryReuseTests {
    /// Small text (deflated whole), small noise (stored), and over 4 MiB of each, which stream.
    func project() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try manifest(project)
        for index in 0..<40 {
            try project.file(
                "R/Level/Text/part\(index).json",
                String(repeating: "{\"part\": \(index), \"enemy\": \"panda\"}\n", count: 50 + index))
        }
        try project.file("R/Level/noise.caf", bytes: randomBytes(30_000, seed: 7))
        try project.file(
            "R/Level/big.json", String(repeating: "{\"tile\": 12345, \"kind\": \"stone\"}\n", count: 150_000))
        try project.file("R/Level/big.mov", bytes: randomBytes(4_300_000, seed: 8))
        try project.file("R/Menu/menu.json", "{\"menu\": true}")
        return project
    }

    /// Two packs, and `extra` resource entries after them.
    func manifest(_ project: TemporaryProject, extra: String = "") throws {
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.reuse
            resources-root: R
            resources:
              - {path: Level, tags: [level]}
              - {path: Menu, tags: [menu]}
            \(extra)
            """)
    }

    func options(_ project: TemporaryProject, _ folder: String, level: Int = 6) -> BuildOptions {
        var options = BuildOptions(
            outputDirectory: project.path(folder), format: .odr, environment: ProcessInfo.processInfo.environment)
        options.useCache = false
        options.level = level
        return options
    }

    /// Builds into `out` after `previous`, the way `build` does with its state.
    func build(_ project: TemporaryProject, after previous: BuildState?, level: Int = 6) throws -> BuildResult {
        let result = try ProjectPlanner().plan(manifestPath: project.manifestPath, format: .odr)
        let plan = try #require(result.plan, "\(result.diagnostics)")
        return try PackBuilder(options: options(project, "out", level: level))
            .build(
                plan, rootPath: try #require(result.resolution?.rootPath),
                previous: PreviousBuild(state: previous ?? BuildState()))
    }

    /// The archives, manifest and OnDemandResources.plist of `out`, which must be those of a clean build of the project as it is now.
    func expectCleanBytes(
        _ project: TemporaryProject, level: Int = 6, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        try? FileManager.default.removeItem(atPath: project.path("clean"))
        let result = try ProjectPlanner().plan(manifestPath: project.manifestPath, format: .odr)
        _ = try PackBuilder(options: options(project, "clean", level: level))
            .build(try #require(result.plan), rootPath: try #require(result.resolution?.rootPath))
        let built = try BuildCommandTests().contents(project.root.appendingPathComponent("out/OnDemandResources"))
        let clean = try BuildCommandTests().contents(project.root.appendingPathComponent("clean/OnDemandResources"))
        #expect(!clean.isEmpty && built == clean, sourceLocation: sourceLocation)
        // The template plist is left out: its URLs name the folder each build was written to.
        for name in [BuildManifest.fileName, AppleManifests.onDemandResourcesFile] {
            let built = try Data(contentsOf: URL(fileURLWithPath: project.path("out/" + name)))
            #expect(
                built == (try Data(contentsOf: URL(fileURLWithPath: project.path("clean/" + name)))), "\(name)",
                sourceLocation: sourceLocation)
        }
    }

    func size(_ project: TemporaryProject, _ path: String) throws -> Int64 {
        try #require(SystemCall.status(FilePath(project.path(path)))?.stamp.size)
    }

    @Test func anEditedFileIsTheOnlyOneRead() throws {
        let project = try project()
        let first = try build(project, after: nil)
        try project.file("R/Level/Text/part17.json", "{\"part\": 17, \"edited\": true}\n")
        let second = try build(project, after: first.state)
        #expect(second.written.count == 1 && second.reused.count == 1)
        // Read once to learn that it changed, once to archive it; the other 42 files are copied.
        #expect(second.bytesRead == 2 * (try size(project, "R/Level/Text/part17.json")))
        try expectCleanBytes(project)
        // And a big file that streams.
        try project.file(
            "R/Level/big.json", String(repeating: "{\"tile\": 54321, \"kind\": \"stone\"}\n", count: 150_000))
        let third = try build(project, after: second.state)
        #expect(third.bytesRead == 2 * (try size(project, "R/Level/big.json")))
        try expectCleanBytes(project)
    }

    @Test func anAddedOrRemovedFileCopiesTheRest() throws {
        let project = try project()
        let first = try build(project, after: nil)
        try project.file("R/Level/Text/added.json", "{\"added\": 1}")
        try FileManager.default.removeItem(atPath: project.path("R/Level/big.mov"))
        let second = try build(project, after: first.state)
        #expect(second.bytesRead == 2 * (try size(project, "R/Level/Text/added.json")))
        try expectCleanBytes(project)
    }

    /// A file whose tags change moves to another pack, new here: its entry is copied from the pack it left.
    @Test func aFileMovedToAnotherPackIsCopiedFromTheOneItLeft() throws {
        let project = try project()
        let first = try build(project, after: nil)
        try manifest(project, extra: "  - {path: Level/big.json, tags: [menu]}")
        let second = try build(project, after: first.state)
        #expect(second.written.count == 2 && second.bytesRead == 0)
        try expectCleanBytes(project)
        // And back: the pack it was in is gone, its entry comes from the pack that held it.
        try manifest(project)
        let third = try build(project, after: second.state)
        #expect(third.removed.count == 1 && third.bytesRead == 0)
        try expectCleanBytes(project)
    }

    /// An archive changed since the last build (its bytes, with its time put back) lends nothing: its pack is
    /// written from the resources.
    @Test func aTamperedArchiveIsNeverCopiedFrom() throws {
        let project = try project()
        let first = try build(project, after: nil)
        let level = try #require(first.plan.packs.first { $0.tags == ["level"] })
        let archive = project.path("out/OnDemandResources/" + level.fileName)
        try TestSystem.keepingTimes(of: archive) {
            var bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
            bytes[bytes.count / 2] ^= 0x55
            try bytes.write(to: URL(fileURLWithPath: archive))
        }
        try project.file("R/Level/Text/part3.json", "{\"part\": 3, \"edited\": true}\n")
        let second = try build(project, after: first.state)
        let rewritten = try #require(second.plan.packs.first { $0.tags == ["level"] })
        #expect(second.written == [rewritten.id] && second.bytesRead == rewritten.size)
        try expectCleanBytes(project)
    }

    /// Entries archived with other settings are compressed again.
    @Test func anotherLevelCopiesNothing() throws {
        let project = try project()
        let first = try build(project, after: nil, level: 1)
        try project.file("R/Level/Text/part5.json", "{}")
        let second = try build(project, after: first.state)
        #expect(second.written.count == 2)
        try expectCleanBytes(project)
        let total = second.plan.packs.reduce(0) { $0 + $1.size }
        #expect(second.bytesRead == total)
    }
}
