import Foundation
import Testing

@testable import ODRPackCore
@testable import ODRPackPlatform

/// Resolution is a pure function of the manifest and a `ResourceFileSystem`: a file system that fails where a real
/// one rarely does (whoever runs the tests, root included) gives exactly the diagnostics docs/diagnostics.md asks for.
@Suite struct InjectedFileSystemTests {
    /// The real disk, except for the failures it is told to give.
    struct FailingFileSystem: ResourceFileSystem {
        var unreadable: [String: Int32] = [:]
        var unresolvable: [String: Int32] = [:]
        var local = LocalFileSystem(jobs: 1)

        func resolvedPath(_ path: String) -> Result<String, SystemError> {
            if let code = unresolvable[(path as NSString).lastPathComponent] { return .failure(SystemError(code)) }
            return local.resolvedPath(path)
        }
        func status(_ path: String, followingLinks: Bool) -> Result<FileStatus, SystemError> {
            local.status(path, followingLinks: followingLinks)
        }
        func scan(_ path: String) -> FileTree { local.scan(path) }
        func read(_ path: String, count: Int, at offset: Int64) -> Result<[UInt8], SystemError> {
            if let code = unreadable[(path as NSString).lastPathComponent] { return .failure(SystemError(code)) }
            return local.read(path, count: count, at: offset)
        }
    }

    func resolve(_ fileSystem: FailingFileSystem) throws -> (Resolution, TemporaryProject) {
        let project = try TemporaryProject()
        let path = try project.manifest(
            "version: 1\nbundle-id: com.example.x\nresources-root: R\nresources:\n  - {path: Levels, tags: [a]}\n")
        try project.file("R/Levels/locked.bin", "secret")
        try project.file("R/Levels/open.bin", "fine")
        try project.symlink("R/Levels/alias.bin", to: "open.bin")
        let (manifest, diagnostics) = try ManifestLoader().load(path: path)
        #expect(diagnostics.isEmpty)
        return (ResourceResolver(manifest: try #require(manifest), fileSystem: fileSystem).resolve(), project)
    }

    @Test func aFileThatCannotBeReadIsFileUnreadableWithTheSystemsReason() throws {
        let (resolution, _) = try resolve(FailingFileSystem(unreadable: ["locked.bin": EACCES]))
        let problems = resolution.diagnostics.map {
            "\($0.severity.rawValue) \($0.code.rawValue) \($0.subject ?? "-") \($0.message)"
        }
        #expect(
            problems == ["error file-unreadable Levels/locked.bin cannot read 'Levels/locked.bin': Permission denied"])
        #expect(resolution.diagnostics.first?.location?.line == 5)
        // The file is still a resource: the error, not a silently smaller pack, is what stops the build.
        #expect(resolution.resources.map(\.path) == ["Levels/alias.bin", "Levels/locked.bin", "Levels/open.bin"])
    }

    @Test func aLinkThatLoopsOrBreaksIsFileUnreadable() throws {
        let (loop, _) = try resolve(FailingFileSystem(unresolvable: ["alias.bin": ELOOP]))
        #expect(
            loop.diagnostics.map(\.message) == ["symbolic link 'Levels/alias.bin' is a loop: remove it or exclude it"])
        let (broken, _) = try resolve(FailingFileSystem(unresolvable: ["alias.bin": ENOENT]))
        #expect(
            broken.diagnostics.map(\.message)
                == [
                    "symbolic link 'Levels/alias.bin' is broken (its target does not exist): remove it or fix its target"
                ])
        #expect(broken.resources.map(\.path) == ["Levels/locked.bin", "Levels/open.bin"])
    }

    @Test func theSameViewGivesTheSameResolution() throws {
        let (first, _) = try resolve(FailingFileSystem())
        let (second, _) = try resolve(FailingFileSystem(local: LocalFileSystem(jobs: 2)))
        #expect(first.diagnostics.isEmpty)
        #expect(first.resources.map(\.path) == second.resources.map(\.path))
        #expect(first.resources.map(\.size) == [4, 6, 4])
    }

    /// A case-insensitive volume (APFS's default on Macs): `stat` finds `hero.png` as `Hero.png`, the folder lists
    /// `Hero.png`.
    struct CaseInsensitiveFileSystem: ResourceFileSystem {
        var local = LocalFileSystem(jobs: 1)

        func onDisk(_ path: String) -> String {
            var resolved = ""
            for component in path.split(separator: "/").map(String.init) {
                let names =
                    (try? FileManager.default.contentsOfDirectory(atPath: resolved.isEmpty ? "/" : resolved)) ?? []
                resolved += "/" + (names.first { $0.lowercased() == component.lowercased() } ?? component)
            }
            return resolved
        }
        func resolvedPath(_ path: String) -> Result<String, SystemError> { local.resolvedPath(path) }
        func status(_ path: String, followingLinks: Bool) -> Result<FileStatus, SystemError> {
            local.status(onDisk(path), followingLinks: followingLinks)
        }
        func scan(_ path: String) -> FileTree { local.scan(path) }
        func read(_ path: String, count: Int, at offset: Int64) -> Result<[UInt8], SystemError> {
            local.read(path, count: count, at: offset)
        }
    }

    /// docs/manifest.md#tags: a `path` entry spells the name as it is on disk; on a volume that ignores case, the wrong case is
    /// `path-not-found` showing the name on disk, not a silently empty entry.
    @Test func aPathInTheWrongCaseIsPathNotFoundShowingTheNameOnDisk() throws {
        let project = try TemporaryProject()
        let path = try project.manifest(
            "version: 1\nbundle-id: com.example.x\nresources-root: R\nresources:\n  - {path: art/hero.png, tags: [a]}\n  - {path: Art/Hero.png, tags: [b]}\n"
        )
        try project.file("R/Art/Hero.png", "PNG")
        let (manifest, _) = try ManifestLoader().load(path: path)
        let resolution = ResourceResolver(manifest: try #require(manifest), fileSystem: CaseInsensitiveFileSystem())
            .resolve()
        let problems = resolution.diagnostics.map {
            "\($0.severity.rawValue) \($0.code.rawValue) \($0.location?.line ?? 0)"
        }
        #expect(problems == ["error path-not-found 5"])
        #expect(resolution.diagnostics.first?.message.contains("the name on disk is 'Art/Hero.png'") == true)
        #expect(resolution.resources.map(\.tags) == [["b"]])
    }
}
