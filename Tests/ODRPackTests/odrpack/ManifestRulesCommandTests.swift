import Foundation
import Testing

/// docs/manifest.md#allowed-warnings through the command line: allowed warnings counted apart on plan, validate and
/// build.
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
        let validate = try CommandRunner.run(["validate", "--warnings-as-errors"], in: project.root)
        #expect(validate.status == 0)
        #expect(validate.stderr == "")
        #expect(
            validate.stdout
                == "odrpack.yml: 1 pack, 1 tagged file, 2 B; 0 errors, 0 warnings, 1 warning allowed by the manifest\n")
        let document = try CommandRunner.run(["validate", "--json"], in: project.root).json()
        #expect((document["diagnostics"] as? [Any])?.isEmpty == true)
        #expect((document["summary"] as? [String: Int]) == ["errors": 0, "warnings": 0])
        let allowed = try #require(document["allowed"] as? [[String: Any]])
        #expect(allowed.map { $0["code"] as? String } == ["entry-matches-nothing"])
        #expect(allowed.map { $0["line"] as? Int } == [6])
        let plan = try CommandRunner.run(["plan", "--json"], in: project.root).json()
        #expect((plan["allowed"] as? [[String: Any]])?.map { $0["code"] as? String } == ["entry-matches-nothing"])
        // build, and the same build again (up to date, replayed): the allowed warning listed both times.
        for _ in 0..<2 {
            let build = try CommandRunner.run(
                ["build", "-o", "out", "--json", "--warnings-as-errors"], in: project.root)
            #expect(build.status == 0, "\(build.stderr)")
            let listed = try #require(try build.json()["allowed"] as? [[String: Any]])
            #expect(listed.map { $0["code"] as? String } == ["entry-matches-nothing"])
        }
        let text = try CommandRunner.run(["build", "-o", "out"], in: project.root)
        #expect(text.stderr == "0 errors, 0 warnings, 1 warning allowed by the manifest\n")
    }
}
