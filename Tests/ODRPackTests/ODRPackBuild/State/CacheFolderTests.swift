import Foundation
import Testing

@testable import ODRPackBuild
@testable import ODRPackPlatform

/// The cache folder (docs/build-output.md#incremental): one another user owns, or that others may write, could hand a
/// build a state that vouches for content the files do not hold. It is not used: one warning, and the build reads
/// every file.
extension BuildCommandTests {
    /// Builds `project` twice with its state in `cache`, which `prepare` spoils after the folder exists.
    func buildTwice(_ project: TemporaryProject, cache: String, prepare: (String) throws -> Void) throws {
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        try prepare(cache)
        let environment = ["ODRPACK_CACHE_DIR": cache]
        for _ in 0..<2 {
            let output = try CommandRunner.run(
                ["build", "-o", "out", "--progress", "never"], in: project.root, environment: environment)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stderr.components(separatedBy: "odrpack: warning: the cache folder").count == 2)
            #expect(output.stderr.contains("'\(cache)'"), "\(output.stderr)")
            // Every file read again, nothing saved there.
            #expect(!output.stdout.contains("read 0 B"), "\(output.stdout)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: cache).isEmpty)
        }
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
    }

    @Test func aCacheFolderOthersMayWriteIsNotUsed() throws {
        let project = try gameProject()
        try buildTwice(project, cache: project.path("shared-cache")) { TestSystem.setMode($0, 0o777) }
        let group = try gameProject()
        try buildTwice(group, cache: group.path("group-cache")) { TestSystem.setMode($0, 0o770) }
    }

    @Test(.enabled(if: getuid() == 0)) func aCacheFolderAnotherUserOwnsIsNotUsed() throws {
        let project = try gameProject()
        try buildTwice(project, cache: project.path("their-cache")) { folder in
            TestSystem.setMode(folder, 0o755)
            try FileManager.default.setAttributes([.ownerAccountID: 65534], ofItemAtPath: folder)
        }
    }

    /// A folder of one's own is made for the user alone and used.
    @Test func aNewCacheFolderIsTheUsersAlone() throws {
        let project = try gameProject()
        let cache = project.path("mine/odrpack")
        let environment = ["ODRPACK_CACHE_DIR": cache]
        let first = try CommandRunner.run(["build", "-o", "out"], in: project.root, environment: environment)
        #expect(first.status == 0 && !first.stderr.contains("warning"), "\(first.stderr)")
        let status = try #require(SystemCall.status(FilePath(cache)))
        #expect(status.permissions == 0o700 && status.owner == getuid())
        // The build's state and its resources-root's index (`BuildState.rootIndexLocation`), nothing else.
        let names = try FileManager.default.contentsOfDirectory(atPath: cache).sorted {
            !$0.hasSuffix(".root") && $1.hasSuffix(".root")
        }
        #expect(names.map { ($0 as NSString).pathExtension } == ["state", "root"], "\(names)")
    }

    /// Without HOME the state goes to the user's home folder from the user database, never to a name in /tmp that
    /// another user could make first.
    @Test func withoutHomeTheStateIsNotInTheTemporaryFolder() throws {
        let location = try #require(BuildState.location(for: "/projects/game/out", environment: [:])).string
        let home = try #require(SystemCall.userHome?.string)
        #expect(location.hasPrefix(home + "/.cache/odrpack/"))
        #expect(!location.hasPrefix(NSTemporaryDirectory()) && !location.hasPrefix("/tmp/"))
        #expect(
            BuildState.location(for: "/projects/game/out", environment: ["HOME": "/h"])?.string.hasPrefix(
                "/h/.cache/odrpack/")
                == true)
    }

    /// The state is keyed by the output folder's bytes (docs/architecture.md#paths): a UTF-8 folder keeps the key its
    /// text gave (existing caches stay valid), and `out\xE9` has its own, not the key of `out\u{FFFD}`, which its text
    /// repairs to.
    @Test func theStateIsKeyedByTheFoldersBytes() throws {
        let environment = ["HOME": "/h"]
        let text = try #require(BuildState.location(for: "/projects/game/out", environment: environment)).string
        #expect(text == "/h/.cache/odrpack/" + String(Data("/projects/game/out".utf8).sha256Hex.prefix(32)) + ".state")
        #expect(BuildState.location(for: FilePath("/projects/game/out"), environment: environment)?.string == text)
        let bytes = RawNames.bytes("/projects/game/out%")
        let raw = try #require(BuildState.location(for: FilePath(bytes: bytes)!, environment: environment)).string
        #expect(raw == "/h/.cache/odrpack/" + String(Data(bytes).sha256Hex.prefix(32)) + ".state")
        #expect(raw != BuildState.location(for: "/projects/game/out\u{FFFD}", environment: environment)?.string)
    }
}
