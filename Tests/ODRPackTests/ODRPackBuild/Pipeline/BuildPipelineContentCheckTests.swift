import Foundation
import Testing

@testable import ODRPackPlatform

/// A clean zip build leaves the executable-content check to its writers, which read every file from its start anyway
/// (`BuildPipeline.buildCheckingWhileWriting`): what it reports, and what it leaves, must be what planning's own check
/// gives. Every build here runs the command in-process, as `main` does.
@Suite struct BuildPipelineContentCheckTests {
    /// Small and large files of data and of code: an ELF and a PE among the small ones, a 64-bit Mach-O over the
    /// whole-entry limit (so `PackWriter.addFile` reads its head), and a Java class file, whose magic a fat Mach-O
    /// shares, that is not code. `moreEntries` are manifest lines added after the three entries.
    func project(withCode: Bool, moreEntries: String = "") throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.code
            resources-root: R
            resources:
              - {path: Small, tags: [small]}
              - {path: Large, tags: [large]}
              - {path: Java, tags: [java]}

            """ + moreEntries)
        try project.file("R/Small/scene.json", String(repeating: "{\"tile\": 1}\n", count: 300))
        try project.file("R/Large/movie.mov", bytes: randomBytes(5 << 20, seed: 11))
        // Class file 0xCAFEBABE, version 50: not an architecture count, so data.
        try project.file(
            "R/Java/Main.class", bytes: Data([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 50] + [UInt8](repeating: 7, count: 40)))
        guard withCode else { return project }
        try project.file("R/Small/tool", bytes: Data([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1]))
        try project.file(
            "R/Small/setup.exe", bytes: Data(SourceFileExecutableContentTests.dos(signature: [0x50, 0x45, 0, 0])))
        var macho = [UInt8]([0xCF, 0xFA, 0xED, 0xFE])
        macho += [UInt8](randomBytes((5 << 20) + 3, seed: 12))
        try project.file("R/Large/engine", bytes: Data(macho))
        return project
    }

    /// `diagnostics` of a command's JSON document.
    func diagnostics(_ output: CommandRunner.Output) throws -> [[String: String]] {
        let list = try #require(try output.json()["diagnostics"] as? [[String: Any]])
        return list.map { $0.compactMapValues { "\($0)" } }
    }

    @Test func aCleanBuildReportsCodeExactlyAsPlanningDoes() throws {
        let project = try project(withCode: true)
        let validate = CommandRunner.runInProcess(["validate", "--json"], in: project.root)
        let expected = try diagnostics(validate)
        #expect(expected.map { $0["code"] } == Array(repeating: "executable-content", count: 3))
        #expect(expected.map { $0["subject"] } == ["Small/setup.exe", "Small/tool", "Large/engine"])
        let build = CommandRunner.runInProcess(["build", "-o", project.path("out"), "--json"], in: project.root)
        #expect(build.status == 1)
        #expect(try diagnostics(build) == expected)
        // Nothing written: not the folder, its lock or a packs folder.
        #expect(!FileManager.default.fileExists(atPath: project.path("out")))
    }

    @Test func aFailedCleanBuildLeavesAFolderItDidNotMakeAsItWas() throws {
        let project = try project(withCode: true)
        try project.file("out/notes.txt", "the user's")
        let before = try OwnershipTests.snapshot(project.path("out"))
        let build = CommandRunner.runInProcess(["build", "-o", project.path("out"), "--json"], in: project.root)
        #expect(build.status == 1)
        #expect(try OwnershipTests.snapshot(project.path("out")) == before)
    }

    /// `--no-cache` forgets the last build, so the writers check; the failed build keeps the last good one.
    @Test func aFailedBuildWithoutTheCacheKeepsTheLastGoodOne() throws {
        let project = try project(withCode: false)
        #expect(CommandRunner.runInProcess(["build", "-o", project.path("out")], in: project.root).status == 0)
        let good = try OwnershipTests.snapshot(project.path("out"))
        try project.file("R/Large/engine", bytes: Data([0xFE, 0xED, 0xFA, 0xCF]) + randomBytes(5 << 20, seed: 13))
        let build = CommandRunner.runInProcess(
            ["build", "-o", project.path("out"), "--no-cache", "--json"], in: project.root)
        #expect(build.status == 1)
        #expect(try diagnostics(build).map { $0["subject"] } == ["Large/engine"])
        #expect(try OwnershipTests.snapshot(project.path("out")) == good)
        #expect(CommandRunner.runInProcess(["verify", project.path("out")], in: project.root).status == 0)
    }

    /// Who checks shows in what a failing build did: a clean build's writers ran (their progress lines are on stderr)
    /// before it failed, while a build with a state stops in planning, before any writer starts.
    @Test func aCleanBuildLeavesTheCheckToItsWritersABuildWithAStateDoesNot() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.who
            resources-root: R
            resources:
              - {path: A, tags: [a]}
              - {path: B, tags: [b]}
            """)
        try project.file("R/A/data.bin", bytes: randomBytes(200_000, seed: 21))
        try project.file("R/B/tool", bytes: Data([0x7F, 0x45, 0x4C, 0x46, 2]))
        let arguments = ["build", "-o", project.path("out"), "--json", "--progress", "always", "--jobs", "1"]
        let clean = CommandRunner.runInProcess(arguments, in: project.root)
        #expect(clean.status == 1)
        #expect(try diagnostics(clean).map { $0["subject"] } == ["B/tool"])
        #expect(clean.stderr.contains("odrpack: "))
        #expect(!FileManager.default.fileExists(atPath: project.path("out")))

        try FileManager.default.removeItem(atPath: project.path("R/B/tool"))
        try project.file("R/B/text.txt", "words")
        #expect(CommandRunner.runInProcess(["build", "-o", project.path("out")], in: project.root).status == 0)
        try project.file("R/B/tool", bytes: Data([0x7F, 0x45, 0x4C, 0x46, 2]))
        let next = CommandRunner.runInProcess(arguments, in: project.root)
        #expect(next.status == 1)
        #expect(try diagnostics(next).map { $0["subject"] } == ["B/tool"])
        #expect(!next.stderr.contains("odrpack: "))
    }

    /// With the last build's state, planning checks what changed (the writers of a rewritten pack may not read every
    /// file); a clean build of data passes the writers' check, and its packs verify.
    @Test func aBuildWithAStateChecksInPlanning() throws {
        let project = try project(withCode: false)
        let clean = CommandRunner.runInProcess(["build", "-o", project.path("out"), "--json"], in: project.root)
        #expect(clean.status == 0)
        #expect(try diagnostics(clean).isEmpty)
        #expect(CommandRunner.runInProcess(["verify", project.path("out")], in: project.root).status == 0)
        try project.file("R/Small/tool", bytes: Data([0xCE, 0xFA, 0xED, 0xFE, 7]))
        let next = CommandRunner.runInProcess(["build", "-o", project.path("out"), "--json"], in: project.root)
        #expect(next.status == 1)
        #expect(
            try diagnostics(next) == diagnostics(CommandRunner.runInProcess(["validate", "--json"], in: project.root)))
        #expect(CommandRunner.runInProcess(["verify", project.path("out")], in: project.root).status == 0)
    }

    /// Other errors stop the build before it writes; the check's findings are reported with them, in planning's order.
    @Test func codeBesideOtherErrorsIsReportedWithThem() throws {
        let project = try project(withCode: true, moreEntries: "  - {path: Missing, tags: [gone]}\n")
        let expected = try diagnostics(CommandRunner.runInProcess(["validate", "--json"], in: project.root))
        #expect(expected.count == 4)
        let build = CommandRunner.runInProcess(["build", "-o", project.path("out"), "--json"], in: project.root)
        #expect(build.status == 1)
        #expect(try diagnostics(build) == expected)
        #expect(!FileManager.default.fileExists(atPath: project.path("out")))
    }
}
