import Foundation
import Testing

@testable import ODRPackCore

/// SPEC 6.1 "Long work shows progress": `build`, `verify`, `thin --embed`, `ipa` and `upload` draw one bar on stderr
/// (done of total, throughput, time left); `--progress always` off a terminal prints it as lines, each run ending with
/// the whole count; `--progress never`, and `auto` off a terminal, print none; stdout never holds any.
@Suite struct ProgressTests {
    let thinTests = ThinCommandTests()

    /// `odrpack: ` lines of progress on stderr.
    static func progressLines(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter {
            $0.hasPrefix("odrpack: ") && $0.contains(" of ") && $0.hasSuffix("s left")
        }
    }

    /// `odrpack: 3/3 packs, 12 KB of 12 KB, `: the whole count of a stage.
    static func whole(_ units: Int, _ unit: String, bytes: Int64) -> String {
        "odrpack: \(units)/\(units) \(unit), \(ByteCount.format(bytes)) of \(ByteCount.format(bytes)), "
    }

    /// The packs of `out/` with the bytes of their archives, as the manifest records them.
    func archives(_ project: TemporaryProject) throws -> (count: Int, bytes: Int64) {
        let data = try Data(contentsOf: URL(fileURLWithPath: project.path("out/odrpack-manifest.json")))
        let manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        let packs = manifest["packs"] as? [[String: Any]] ?? []
        return (packs.count, packs.reduce(Int64(0)) { $0 + Int64($1["archiveSize"] as? Int ?? 0) })
    }

    /// Every regular file under `folder` and their bytes.
    func files(under folder: String) throws -> (count: Int, bytes: Int64) {
        var count = 0
        var bytes: Int64 = 0
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            count += 1
            bytes += (attributes[.size] as? NSNumber)?.int64Value ?? 0
        }
        return (count, bytes)
    }

    @Test func verifyCountsThePacksAndTheirArchiveBytes() throws {
        let project = try thinTests.builtGame()
        let (count, bytes) = try archives(project)
        #expect(count > 1)
        let lines = try CommandRunner.run(["verify", "out", "--progress", "always"], in: project.root)
        #expect(lines.status == 0, "\(lines.stderr)")
        #expect(
            Self.progressLines(lines.stderr).last?.hasPrefix(Self.whole(count, "packs", bytes: bytes)) == true,
            "\(lines.stderr)")
        #expect(!lines.stdout.contains("s left"))
        // None by default off a terminal, none with never; --json keeps stdout one document even with always.
        for arguments in [["verify", "out"], ["verify", "out", "--progress", "never"], ["verify", "out", "--json"]] {
            let run = try CommandRunner.run(arguments, in: project.root)
            #expect(run.status == 0 && Self.progressLines(run.stderr).isEmpty, "\(arguments): \(run.stderr)")
        }
        let json = try CommandRunner.run(["verify", "out", "--json", "--progress", "always"], in: project.root)
        #expect(json.status == 0 && (try? json.json()["schemaVersion"] as? Int) == 1, "\(json.stdout)")
        #expect(!json.stdout.contains("odrpack: ") && !Self.progressLines(json.stderr).isEmpty)
        // --quiet silences auto; it prints only errors.
        let quiet = try CommandRunner.run(["verify", "out", "--quiet"], in: project.root)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty && quiet.stdout.isEmpty)
    }

    /// A Background Assets build: its `.aar` archives are hashed whole, and counted so.
    @Test func verifyOfABackgroundAssetsBuildCountsItsArchives() throws {
        let fixture = try BackgroundAssetsFixture()
        #expect(try fixture.build().status == 0)
        let packs = try fixture.json("out/odrpack-manifest.json")["packs"] as? [[String: Any]] ?? []
        let bytes = packs.reduce(Int64(0)) { $0 + Int64($1["archiveSize"] as? Int ?? 0) }
        #expect(packs.count > 1 && bytes > 0)
        let run = try fixture.run(["verify", "out", "--progress", "always"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            Self.progressLines(run.stderr).last?.hasPrefix(Self.whole(packs.count, "packs", bytes: bytes)) == true,
            "\(run.stderr)")
    }

    @Test func thinEmbedCountsThePacksCopiedIntoTheApp() throws {
        let project = try thinTests.builtGame()
        let (count, _) = try archives(project)
        // Without --embed thin copies nothing: no progress even when asked.
        let plain = try CommandRunner.run(["thin", "Game.app", "out", "--progress", "always"], in: project.root)
        #expect(plain.status == 0 && Self.progressLines(plain.stderr).isEmpty, "\(plain.stderr)")
        let embed = try CommandRunner.run(
            ["thin", "Game.app", "out", "--embed", "--progress", "always"], in: project.root)
        #expect(embed.status == 0, "\(embed.stderr)")
        let copied = try files(under: project.path("Game.app/OnDemandResources"))
        #expect(copied.count > count)
        #expect(
            Self.progressLines(embed.stderr).last?.hasPrefix(Self.whole(count, "packs", bytes: copied.bytes)) == true,
            "\(embed.stderr)")
        #expect(!embed.stdout.contains("s left"))
        for extra in [["--progress", "never"], ["--json"]] {
            let run = try CommandRunner.run(["thin", "Game.app", "out", "--embed"] + extra, in: project.root)
            #expect(run.status == 0 && Self.progressLines(run.stderr).isEmpty, "\(extra): \(run.stderr)")
        }
    }

    @Test func ipaCountsThePacksVerifiedAndCopiedThenTheFilesZipped() throws {
        let project = try thinTests.builtGame()
        let (count, bytes) = try archives(project)
        let run = try CommandRunner.run(
            ["ipa", "Game.app", "out", "-o", "Game.ipa", "--progress", "always"], in: project.root)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = Self.progressLines(run.stderr)
        // Stage 1, verify: the archives' bytes.
        #expect(lines.contains { $0.hasPrefix(Self.whole(count, "packs", bytes: bytes)) }, "\(run.stderr)")
        // Stage 2, the packs copied beside the app: what Payload/OnDemandResources/ holds.
        let (names, entries) = try IPACommandTests.read(project.path("Game.ipa"))
        let packFiles = names.filter { $0.hasPrefix("Payload/OnDemandResources/") && !$0.hasSuffix("/") }
        let packBytes = packFiles.reduce(Int64(0)) { $0 + Int64(entries[$1]?.data.count ?? 0) }
        #expect(lines.contains { $0.hasPrefix(Self.whole(count, "packs", bytes: packBytes)) }, "\(run.stderr)")
        // Stage 3, the zip: every file of the IPA (links are no files) and its bytes, the last line.
        let zipped = names.filter { !$0.hasSuffix("/") && entries[$0]?.link == nil }
        let zippedBytes = zipped.reduce(Int64(0)) { $0 + Int64(entries[$1]?.data.count ?? 0) }
        #expect(lines.last?.hasPrefix(Self.whole(zipped.count, "files", bytes: zippedBytes)) == true, "\(run.stderr)")
        #expect(!run.stdout.contains("s left"))
        for extra in [["--progress", "never"], ["--json"]] {
            let quiet = try CommandRunner.run(
                ["ipa", "Game.app", "out", "-o", "Game.ipa"] + extra, in: project.root)
            #expect(quiet.status == 0 && Self.progressLines(quiet.stderr).isEmpty, "\(extra): \(quiet.stderr)")
        }
    }

    /// On a terminal (`script` gives a pty) every command draws the same bar: `\r`, erase the line, 24 columns.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func onATerminalBuildAndVerifyDrawTheSameBar() throws {
        let project = try thinTests.builtGame()
        let (count, bytes) = try archives(project)
        func onATerminal(_ arguments: String) throws -> String {
            try CommandRunner.run(
                ["-qec", "unset NO_COLOR; env TERM=xterm \(CommandRunner.executable.path) \(arguments)", "/dev/null"],
                in: project.root, executable: URL(fileURLWithPath: "/usr/bin/script")
            ).stdout
        }
        let full = "\r\u{1B}[K[" + String(repeating: "#", count: 24) + "] "
        let verify = try onATerminal("verify out")
        #expect(
            verify.contains(full + Self.whole(count, "packs", bytes: bytes).dropFirst(9)), "\(verify.debugDescription)")
        // The bar is cleared before the verdict.
        #expect(verify.contains("s left\r\u{1B}[K"), "\(verify.debugDescription)")
        let build = try onATerminal("build -o again --no-cache")
        #expect(build.contains(full + "\(count)/\(count) packs, "), "\(build.debugDescription)")
        #expect(!(try onATerminal("verify out --progress never")).contains("\u{1B}[K"))
    }
}
