import Foundation
import Testing

@testable import ODRPackPlatform

/// Ctrl-C and kills during `thin` (docs/commands.md#thin): Ctrl-C is held from the first file staged in the app to the
/// last rename, so the app is either as it was or thinned, never holds `.odrpack-tmp-*`, and "run thin again to
/// finish" is true; what a killed thin only staged is removed by the next one.
@Suite(.tags(.slow, .endToEnd)) struct ThinInterruptTests {
    let thinTests = ThinCommandTests()

    /// The temporaries anywhere in the app.
    static func temporaries(_ app: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: app).filter {
            $0.split(separator: "/").contains { $0.hasPrefix(TemporaryName.marker) }
        }
    }

    /// Ctrl-C at seeded moments during `thin --embed` of an app with 3,000 packed files: exit 0 or 130, the app as it
    /// was or thinned whole, no temporary in it, and the next thin finishes it.
    @Test func ctrlCLeavesTheAppWholeAndTheNextThinFinishes() throws {
        let project = try TemporaryProject()
        try project.manifest(
            "version: 1\nbundle-id: com.example.int\nresources-root: R\nresources:\n  - {path: Levels, tags: [levels]}\n"
        )
        for index in 0..<3_000 { try project.file("R/Levels/\(index % 30)/file\(index).json", "{\"i\": \(index)}") }
        #expect(try CommandRunner.run(["build", "-o", "out"], in: project.root).status == 0)
        try FileManager.default.copyItem(atPath: project.path("R/Levels"), toPath: project.path("Original.app/Levels"))
        try project.file("Original.app/Info.plist", bytes: AppBundleFixture.infoPlist(bundleId: "com.example.int"))
        try project.file("Original.app/Game", "executable")
        let original = try AppBundleFixture.snapshot(project.path("Original.app"))
        try FileManager.default.copyItem(atPath: project.path("Original.app"), toPath: project.path("Thinned.app"))
        #expect(try CommandRunner.run(["thin", "Thinned.app", "out", "--embed"], in: project.root).status == 0)
        let thinned = try AppBundleFixture.snapshot(project.path("Thinned.app"))

        let seed =
            ProcessInfo.processInfo.environment["ODRPACK_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        print("ctrlCLeavesTheAppWholeAndTheNextThinFinishes: seed \(seed)")
        var generator = SplitMix64(state: seed)
        for round in 0..<TestLevel.rounds(2, full: 6) {
            try? FileManager.default.removeItem(atPath: project.path("Game.app"))
            try FileManager.default.copyItem(atPath: project.path("Original.app"), toPath: project.path("Game.app"))
            let process = Process()
            process.executableURL = CommandRunner.executable
            process.arguments = ["thin", "Game.app", "out", "--embed"]
            process.currentDirectoryURL = project.root
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            usleep(UInt32.random(in: 0..<400_000, using: &generator))
            kill(process.processIdentifier, SIGINT)
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let status = process.terminationStatus
            #expect(status == 0 || status == 130, "seed \(seed), round \(round): \(status) \(said)")
            #expect(try Self.temporaries(project.path("Game.app")) == [], "seed \(seed), round \(round)")
            let now = try AppBundleFixture.snapshot(project.path("Game.app"))
            #expect(now == original || now == thinned, "seed \(seed), round \(round): \(status)")
            if status == 130 {
                #expect(said.contains("run thin again to finish"), "\(said)")
                let again = try CommandRunner.run(["thin", "Game.app", "out", "--embed"], in: project.root)
                #expect(again.status == 0, "seed \(seed), round \(round): \(again.stderr)")
                #expect(try AppBundleFixture.snapshot(project.path("Game.app")) == thinned)
            }
        }
    }

    /// What a killed thin staged and never placed (a pack in `OnDemandResources/`, a plist in the app's root) is
    /// removed by the next thin; the folder of app files a killed commit moved aside is still refused by name.
    @Test func whatAKilledThinStagedIsRemovedByTheNext() throws {
        let project = try thinTests.builtGame()
        let dead = "999999999"
        try project.file("Game.app/OnDemandResources/.odrpack-tmp-\(dead)-0123456789abcdef0123/Info.plist", "staged")
        try project.file("Game.app/.odrpack-tmp-\(dead)-abcdef0123456789abcd", "a staged plist")
        let output = try CommandRunner.run(["thin", "Game.app", "out", "--embed"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try Self.temporaries(project.path("Game.app")) == [])

        let aside = ".odrpack-tmp-\(dead)-" + TemporaryName.digest(of: ".odrpack-thin-set-aside")
        try project.file("Game.app/\(aside)/0", "an app file moved aside")
        let refused = try CommandRunner.run(["thin", "Game.app", "out"], in: project.root)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("'Game.app/\(aside)' was left by an interrupted thin"), "\(refused.stderr)")
    }
}
