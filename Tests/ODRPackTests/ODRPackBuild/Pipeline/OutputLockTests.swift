import Foundation
import ODRPackCore
import Testing

@testable import ODRPackPlatform

/// docs/build-output.md, "One build at a time": a build waits for another holder of the output folder, or fails with --no-wait.
@Suite struct OutputLockTests {
    let game = BuildCommandTests()

    @Test func aSecondBuildWaitsOrFailsWithNoWait() throws {
        let project = try game.gameProject()
        let lock = Locked<OutputLock?>(
            try OutputLock(folder: FilePath(project.path("out")), fileName: BuildFolder.lockFileName, wait: false) {})
        let refused = try game.build(project, "out", ["--no-wait"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("another odrpack build"))
        #expect(!FileManager.default.fileExists(atPath: project.path("out/odrpack-manifest.json")))

        // The waiting build says so; the lock is released once it has, and the build then runs as usual.
        let (process, said, _) = try CommandRunner.startWaitingForLock(["build", "-o", "out"], in: project.root)
        #expect(said.contains("waiting for it to finish"))
        #expect(!FileManager.default.fileExists(atPath: project.path("out/odrpack-manifest.json")))
        lock.withLock { $0 = nil }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
        // The lock file is not output.
        #expect(try CommandRunner.run(["build", "-o", "out", "--no-wait"], in: project.root).status == 0)
    }

    @Test func concurrentBuildsBothFinishWithAFolderThatVerifies() throws {
        let project = try game.gameProject()
        let statuses = Locked<[Int32]>([])
        let root = project.root
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let status = (try? CommandRunner.run(["build", "-o", "out", "--no-cache"], in: root))?.status ?? -1
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 } == [0, 0])
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources"))
            .filter { $0.contains("odrpack-tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func aBuildWithErrorsLeavesNoFolderBehind() throws {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.x\nresources:\n  - {path: missing, tags: [a]}\n")
        #expect(try CommandRunner.run(["build", "-o", "new/out"], in: project.root).status == 1)
        #expect(!FileManager.default.fileExists(atPath: project.path("new/out")))
    }
}
