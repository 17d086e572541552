import Foundation
import Testing

@testable import ODRPackBuildFormat
@testable import ODRPackCore
@testable import ODRPackPlatform

/// docs/commands.md#report-and-ci and #build: the page of what was built (`report BUILD_DIR`), with each pack's
/// download bytes beside its installed bytes, and `build --summary`'s pack table.
@Suite struct BuildReportPageTests {
    let diff = DiffCommandTests()

    /// Each pack of a build manifest by id: its tags, files, size and archive size.
    func packs(_ project: TemporaryProject, _ build: String) throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: project.path("\(build)/odrpack-manifest.json")))
        let document = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        var packs: [String: [String: Any]] = [:]
        for pack in document["packs"] as? [[String: Any]] ?? [] { packs[pack["id"] as! String] = pack }
        return packs
    }

    @Test func theBuildPageShowsDownloadBesideInstalledBytes() throws {
        let project = try diff.project()
        try diff.build(project, "v1")
        let manifest = try packs(project, "v1")
        for given in ["v1", "v1/odrpack-manifest.json"] {
            let run = try CommandRunner.run(["report", given, "-o", "page.html"], in: project.root)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == "Wrote page.html: 4 packs, 5 files (a build)\n")
            let data = try DiffDownloadTests.pageData(project.path("page.html"))
            #expect(data["kind"] as? String == "build")
            let pagePacks = try #require(data["packs"] as? [[String: Any]])
            #expect(pagePacks.count == 4)
            for pack in pagePacks {
                let built = try #require(manifest[pack["id"] as? String ?? ""])
                #expect(pack["downloadSize"] as? Int == built["archiveSize"] as? Int)
                #expect(pack["size"] as? Int == built["size"] as? Int)
            }
            // The gauges count what the store hosts and devices download: the archives.
            let archives = manifest.values.compactMap { $0["archiveSize"] as? Int }.reduce(0, +)
            let limits = try #require(data["limits"] as? [[String: Any]])
            let all = limits.first { $0["key"] as? String == "max-total-size" }
            #expect(all?["value"] as? Int == archives)
            #expect(all?["name"] as? String == "all packs (download bytes)")
            #expect((data["totals"] as? [String: Any])?["downloadSize"] as? Int == archives)
            #expect((data["totals"] as? [String: Any])?["size"] as? Int == 1650)
        }
        // A build's page is the build as made: a manifest's options are a bad command line.
        let profile = try CommandRunner.run(["report", "v1", "--profile", "tvos"], in: project.root)
        #expect(profile.status == 64)
        #expect(profile.stderr.hasPrefix("odrpack: error: --profile and --format are for a manifest"))
    }

    /// A build's page is made from its manifest read under the folder's shared lock, as verify reads it: while a
    /// build holds the folder, report says so and waits, then writes the page.
    @Test func theBuildPageWaitsForABuildOfItsFolder() throws {
        let project = try diff.project()
        try diff.build(project, "v1")
        let lock = Locked<OutputLock?>(
            try OutputLock(folder: FilePath(project.path("v1")), fileName: BuildFolder.lockFileName, wait: false) {})
        let (process, said, _) = try CommandRunner.startWaitingForLock(
            ["report", "v1", "-o", "page.html"], in: project.root)
        #expect(said == "odrpack: a build is using 'v1': waiting for it to finish\n")
        #expect(process.isRunning && !FileManager.default.fileExists(atPath: project.path("page.html")))
        lock.withLock { $0 = nil }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: project.path("page.html")))
    }

    @Test func buildSummaryEndsWithThePackTable() throws {
        let project = try diff.project()
        let first = try CommandRunner.run(["build", "-o", "v1", "--summary"], in: project.root)
        #expect(first.status == 0, "\(first.stderr)")
        let manifest = try packs(project, "v1")
        let lines = first.stdout.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex { $0.hasPrefix("  PACK ") })
        #expect(lines[header - 1] == "Packs")
        #expect(lines[header].split(separator: " ") == ["PACK", "TAGS", "FILES", "INSTALLED", "ARCHIVE", "STATUS"])
        let rows = lines[(header + 1)...].filter { !$0.isEmpty }
        #expect(rows.count == 4)
        for (id, pack) in manifest {
            let tags = (pack["tags"] as? [String] ?? []).joined(separator: "+")
            let row = rows.first { $0.split(separator: " ").dropFirst().first.map(String.init) == tags }
            let cells: [String] = (row ?? "").split(separator: " ").map(String.init)
            let short: String = "asset-pack-" + String(id.components(separatedBy: ".asset-pack-").last!.prefix(8))
            let files: String = "\((pack["files"] as? [Any])?.count ?? -1)"
            let size: [String] = ByteCount.format(Int64(pack["size"] as? Int ?? -1)).components(separatedBy: " ")
            let archive: [String] = ByteCount.format(Int64(pack["archiveSize"] as? Int ?? -1)).components(
                separatedBy: " ")
            let expected: [String] = [short, tags, files] + size + archive + ["written"]
            #expect(cells == expected, "\(row ?? "no row for \(tags)")")
        }
        // Nothing changed: every pack is unchanged.
        let second = try CommandRunner.run(["build", "-o", "v1", "--summary"], in: project.root)
        #expect(second.status == 0)
        let statuses = second.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("  asset-pack-") }
            .map { $0.split(separator: " ").last.map(String.init) }
        #expect(statuses == Array(repeating: "unchanged", count: 4))
        // Without --summary, no table.
        #expect(!(try CommandRunner.run(["build", "-o", "v1"], in: project.root).stdout.contains("PACK")))
    }
}
