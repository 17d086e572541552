import Dispatch
import Foundation
import ODRPackBuildFormat
import ODRPackCore
import Testing

@testable import ODRPackPlatform
@testable import ODRPackVerify

/// docs/build-output.md, "One build at a time": opening a build folder takes the lock its access needs, readers
/// together, a writer alone.
@Suite struct BuildFolderSessionTests {
    let game = BuildCommandTests()

    /// A built folder, with its lock file.
    func builtFolder() throws -> TemporaryProject {
        let project = try game.gameProject()
        #expect(try game.build(project).status == 0)
        return project
    }

    @Test func readersShareTheLockAndAWriterCannotTakeIt() throws {
        let project = try builtFolder()
        do {
            let reader = try BuildFolderSession.open(forReading: FilePath(project.path("out")))
            let second = try BuildFolderSession.open(forReading: FilePath(project.path("out/odrpack-manifest.json")))
            #expect(reader.access == .reading && reader.isLocked)
            #expect(second.isLocked)
            #expect(second.folder.path == FilePath(project.path("out")))
            #expect(
                throws: ODRPackError.folderLocked(.buildFolderInUse("out"))
            ) {
                _ = try BuildFolderSession.open(forWriting: FilePath(project.path("out")), shownAs: "out", wait: false)
            }
        }
        // The readers are gone: a writer takes the folder at once.
        let writer = try BuildFolderSession.open(forWriting: FilePath(project.path("out")), shownAs: "out", wait: false)
        #expect(writer.session.access == .writing && writer.session.isLocked)
    }

    /// A session carries the folder's locations, each a `FilePath` made from the folder, and reads the build manifest
    /// once under its lock: a second ask gives what the first read, whatever the file holds since.
    @Test func aSessionCarriesTheLocationsAndReadsTheManifestOnce() throws {
        let project = try builtFolder()
        let out = FilePath(project.path("out"))
        let reader = try BuildFolderSession.open(forReading: out)
        #expect(reader.folder.path == out)
        #expect(reader.folder.manifest == out.joined("odrpack-manifest.json"))
        #expect(reader.folder.journal == out.joined(".odrpack-tmp-previous-manifest.json"))
        #expect(reader.folder.commitRecord == out.joined(".odrpack-tmp-commit-writes"))
        #expect(reader.folder.lock == out.joined(".odrpack.lock"))
        #expect(reader.folder.packs(.odr) == out.joined("OnDemandResources"))
        #expect(reader.folder.packs(.backgroundAssets) == out.joined("BackgroundAssets"))
        let first = try reader.manifest()
        try Data("not a manifest".utf8).write(to: project.root.appendingPathComponent("out/odrpack-manifest.json"))
        #expect(try reader.manifest() == first)
        // A new session reads the file as it now is.
        #expect(throws: ODRPackError.self) { try BuildFolderSession.open(forReading: out).manifest() }
        // Given its manifest file, the session's folder is the file's, and the manifest is that file.
        let byFile = try BuildFolderSession.open(forReading: out.joined("odrpack-manifest.json"))
        #expect(byFile.folder.path == out && byFile.folder.manifest == out.joined("odrpack-manifest.json"))
        #expect(byFile.folder.shownAs == nil && reader.folder.shownAs == out)
    }

    @Test func verifyWaitsForTheWriterAndReadsOnceItIsGone() throws {
        let project = try builtFolder()
        let writer = Locked<BuildFolderSession.Writer?>(
            try BuildFolderSession.open(forWriting: FilePath(project.path("out")), shownAs: "out", wait: false))
        let waiting = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let outcome = Locked<Bool?>(nil)
        let folder = project.path("out")
        DispatchQueue.global().async {
            let report = try? BuildVerifier().verify(FilePath(folder), onWait: { waiting.signal() })
            outcome.withLock { $0 = report?.ok }
            finished.signal()
        }
        #expect(waiting.wait(timeout: .now() + 30) == .success, "verify never waited for the writer")
        #expect(outcome.withLock { $0 } == nil)
        writer.withLock { $0 = nil }
        #expect(finished.wait(timeout: .now() + 60) == .success)
        #expect(outcome.withLock { $0 } == true)
    }

    @Test func aReaderOfAFolderWithoutALockFileTakesNoneAndMakesNone() throws {
        let project = try builtFolder()
        try FileManager.default.removeItem(atPath: project.path("out/" + BuildFolder.lockFileName))
        let reader = try BuildFolderSession.open(forReading: FilePath(project.path("out")))
        #expect(!reader.isLocked)
        #expect(!FileManager.default.fileExists(atPath: project.path("out/" + BuildFolder.lockFileName)))
    }

    @Test func aWriterThatCommitsNothingLeavesNoFolderItMade() throws {
        let project = try TemporaryProject()
        let writer = try BuildFolderSession.open(forWriting: FilePath(project.path("new")), shownAs: "new", wait: false)
        #expect(FileManager.default.fileExists(atPath: project.path("new/" + BuildFolder.lockFileName)))
        writer.abandon()
        #expect(!FileManager.default.fileExists(atPath: project.path("new")))
    }
}
