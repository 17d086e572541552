import Foundation
import Testing

/// docs/manifest.md#allowed-warnings and docs/commands.md#scripts, through the command line: allowed warnings counted
/// apart on plan, validate and build; diagnostics in position order; the gate stopping build before its commit and
/// upload before it sends; a build manifest given to plan or validate.
@Suite struct ManifestRulesCommandTests {
    /// One pack, and a glob that matches nothing, allowed by the manifest.
    func allowing() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.allow
            resources-root: R
            resources:
              - {path: A, tags: [a]}
              - {glob: "*.caf", tags: [b]}
            allow: [entry-matches-nothing]
            """)
        try project.file("R/A/a.json", "{}")
        return project
    }

    @Test func allowedWarningsAreNotPrintedCountedNorFatal() throws {
        let project = try allowing()
        let validate = CommandRunner.runInProcess(["validate", "--warnings-as-errors"], in: project.root)
        #expect(validate.status == 0)
        #expect(validate.stderr == "")
        #expect(
            validate.stdout
                == "\(project.manifestPath): 1 pack, 1 tagged file, 2 B; 0 errors, 0 warnings, 1 warning allowed by the manifest\n"
        )
        let document = try CommandRunner.runInProcess(["validate", "--json"], in: project.root).json()
        #expect((document["diagnostics"] as? [Any])?.isEmpty == true)
        #expect((document["summary"] as? [String: Int]) == ["errors": 0, "warnings": 0])
        let allowed = try #require(document["allowed"] as? [[String: Any]])
        #expect(allowed.map { $0["code"] as? String } == ["entry-matches-nothing"])
        #expect(allowed.map { $0["line"] as? Int } == [6])
        let plan = try CommandRunner.runInProcess(["plan", "--json"], in: project.root).json()
        #expect((plan["allowed"] as? [[String: Any]])?.map { $0["code"] as? String } == ["entry-matches-nothing"])
        // build, and the same build again (up to date, replayed): the allowed warning listed both times.
        for _ in 0..<2 {
            let build = CommandRunner.runInProcess(
                ["build", "-o", project.path("out"), "--json", "--warnings-as-errors"], in: project.root)
            #expect(build.status == 0, "\(build.stderr)")
            let listed = try #require(try build.json()["allowed"] as? [[String: Any]])
            #expect(listed.map { $0["code"] as? String } == ["entry-matches-nothing"])
        }
        let text = CommandRunner.runInProcess(["build", "-o", project.path("out")], in: project.root)
        #expect(text.stderr == "0 errors, 0 warnings, 1 warning allowed by the manifest\n")
    }

    /// Errors found by three stages (the plan's checks at line 5, resolution at 12 and 20) come out by line.
    @Test func diagnosticsComeInPositionOrder() throws {
        let project = try TemporaryProject()
        var lines = ["version: 1", "bundle-id: com.example.order", "resources-root: R", "# the first to load"]
        lines.append("initial-install: [ghost]")
        while lines.count < 10 { lines.append("#") }
        lines.append("resources:")
        lines.append("  - {path: One, tags: [one]}")
        while lines.count < 19 { lines.append("  #") }
        lines.append("  - {path: Two, tags: [two]}")
        try project.manifest(lines.joined(separator: "\n") + "\n")
        try project.folder("R")
        let text = CommandRunner.runInProcess(["validate"], in: project.root)
        #expect(text.status == 1)
        #expect(
            text.stderr.split(separator: "\n").map { $0.split(separator: ":")[1] } == ["5", "12", "20"],
            "\(text.stderr)")
        let json = try CommandRunner.runInProcess(["validate", "--json"], in: project.root).json()
        #expect((json["diagnostics"] as? [[String: Any]])?.map { $0["line"] as? Int } == [5, 12, 20])
    }

    /// `output-foreign-file` under the gate stops build before anything moves: the folder stays byte for byte.
    @Test func theGateStopsBuildBeforeItsCommit() throws {
        let project = try TemporaryProject()
        let manifest =
            "version: 1\nbundle-id: com.example.gate\nresources-root: R\nresources:\n  - {path: A, tags: [a]}\n"
        try project.manifest(manifest)
        try project.file("R/A/a.json", "{}")
        #expect(CommandRunner.runInProcess(["build", "-o", project.path("out")], in: project.root).status == 0)
        try project.file("out/OnDemandResources/mine.txt", "the user's")
        try project.file("R/A/a.json", "{\"changed\": 1}")
        let before = try OwnershipTests.snapshot(project.path("out"))
        let stopped = CommandRunner.runInProcess(
            ["build", "-o", project.path("out"), "--warnings-as-errors"], in: project.root)
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains("[output-foreign-file]"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("odrpack: nothing written: 0 errors, 1 warning\n"))
        #expect(try OwnershipTests.snapshot(project.path("out")) == before)
        // Allowed, it neither stops nor shows.
        try project.manifest(manifest + "allow: [output-foreign-file]\n")
        let allowed = CommandRunner.runInProcess(
            ["build", "-o", project.path("out"), "--warnings-as-errors"], in: project.root)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(!allowed.stderr.contains("output-foreign-file"))
        #expect(try OwnershipTests.snapshot(project.path("out")) != before)
    }

    /// upload's warnings (`ba-quota`, past 90% of the ids) come before anything is sent: under the gate, exit 1 with
    /// nothing sent but lookups and no upload record.
    @Test func theGateStopsUploadWithNothingSent() throws {
        let build = try UploadFixture()
        let assets = (0..<90).map { ["assetPackIdentifier": "old-\($0)", "usedBytes": 10] as [String: Any] }
        let standIn = try AppStoreConnectStandIn(config: ["assets": assets])
        // The dry run and a real upload alike: the warnings (the quota at 80%, and the fixture's --ba-package
        // packager) stop it before anything is sent.
        for dryRun in [["--dry-run"], []] {
            let run = try build.upload([build.out, "--all", "--warnings-as-errors"] + dryRun, standIn)
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains("[ba-quota]") && run.stderr.contains("[ba-packager-unknown]"))
            #expect(run.stderr.hasSuffix("odrpack: error: 2 warnings treated as errors (--warnings-as-errors)\n"))
            #expect(Set(standIn.requests.map { $0["method"] as? String ?? "" }) == ["GET"])
            #expect(build.record == nil)
        }
    }

    /// A build manifest or build folder given to plan or validate: one error saying what it is and what to pass.
    @Test func aBuildManifestIsOneError() throws {
        let project = try allowing()
        #expect(try CommandRunner.run(["build", "-o", "out"], in: project.root).status == 0)
        for command in ["plan", "validate"] {
            let output = try CommandRunner.run([command, "out/odrpack-manifest.json", "--json"], in: project.root)
            #expect(output.status == 1)
            let diagnostics = try #require(try output.json()["diagnostics"] as? [[String: Any]])
            #expect(
                diagnostics.map { $0["message"] as? String } == [
                    """
                    'out/odrpack-manifest.json' is a build manifest (the odrpack-manifest.json that build writes), \
                    not a tag manifest: pass the odrpack.yml it was built from (report, diff, verify, thin, ipa, \
                    upload, submit and status take a build folder)
                    """
                ])
            let folder = try CommandRunner.run([command, "out"], in: project.root)
            #expect(folder.status == 2)
            #expect(folder.stderr.hasPrefix("odrpack: error: 'out' is an odrpack build folder, not a tag manifest"))
        }
    }
}
