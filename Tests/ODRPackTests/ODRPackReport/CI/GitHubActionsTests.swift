import Foundation
import Testing

@testable import ODRPackCore
@testable import ODRPackReport

/// `--github`, the step summary and `diff --markdown` (docs/commands.md#report-and-ci).
@Suite struct GitHubActionsTests {
    @Test func workflowCommandsAreEscapedAsGitHubRequires() {
        let located = Diagnostic.error(
            .packTooLarge, "pack is 100% full\r\nsecond line, with: colon",
            at: SourceLocation(file: "games/a,b:c.yml", line: 12, column: 5), subject: "p")
        #expect(
            GitHubActions.command(located)
                == "::error file=games/a%2Cb%3Ac.yml,line=12,col=5,title=pack-too-large::pack is 100%25 full%0D%0Asecond line, with: colon"
        )
        let unlocated = Diagnostic.warning(.overRecommendedSize, "big", subject: "level1")
        #expect(GitHubActions.command(unlocated) == "::warning title=over-recommended-size::big")
    }

    @Test func validateAnnotatesABrokenManifestAndAppendsTheSummary() throws {
        let project = try TemporaryProject()
        try project.manifest(
            "version: 1\nbundle-id: com.example.gh\nresorces: []\nresources:\n  - {path: a.txt, tags: [a]}\n")
        try project.file("a.txt", "x")
        let summary = project.path("summary.md")
        try Data("earlier step\n".utf8).write(to: URL(fileURLWithPath: summary))
        let output = try CommandRunner.run(
            ["validate", "--github"], in: project.root, environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(output.status == 1)
        let annotations = output.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(
            annotations == [
                "::error file=odrpack.yml,line=3,col=1,title=manifest-unknown-key::unknown key 'resorces' in the manifest: did you mean 'resources'?"
            ])
        let text = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(text.hasPrefix("earlier step\n### odrpack: validate odrpack.yml"))
        #expect(text.contains("`odrpack.yml:3:1` unknown key 'resorces'"))

        // A clean plan: no annotation, and the totals against the limits in the summary.
        try project.manifest("version: 1\nbundle-id: com.example.gh\nresources:\n  - {path: a.txt, tags: [a]}\n")
        let plan = try CommandRunner.run(
            ["plan", "--github"], in: project.root, environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(plan.status == 0 && !plan.stdout.contains("::"))
        let after = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(after.contains("| all packs | 1 B | 20 GB | 0.0% |"))
        #expect(after.hasSuffix("No problems.\n"))
        #expect(try CommandRunner.run(["plan", "--github", "--json"], in: project.root).status == 64)
        #expect(try CommandRunner.run(["build", "-o", "out", "--github", "--json"], in: project.root).status == 64)
    }

    @Test func diffMarkdownCountsChangesAndRedownloads() throws {
        let game = BuildCommandTests()
        let project = try game.gameProject()
        #expect(try game.build(project, "old").status == 0)
        try project.file("R/Level2/scene.json", String(repeating: "{\"tile\": 9}\n", count: 300))
        #expect(try game.build(project, "new").status == 0)
        let output = try CommandRunner.run(["diff", "old", "new", "--markdown"], in: project.root)
        #expect(output.status == 0)
        #expect(output.stdout.contains("**1 of 4 packs changed.**"))
        #expect(output.stdout.contains(" | 23.6 KB |\n| on-demand | 0 B | 0 B |\n"))
        // The tag table the text leads with: download bytes, then installed bytes.
        let tagRow = output.stdout.split(separator: "\n").first { $0.hasPrefix("| level2 |") }.map(String.init)
        #expect(tagRow?.hasPrefix("| level2 | changed | prefetch | ") == true, "\(tagRow ?? "")")
        #expect(tagRow?.hasSuffix(" | 23.6 KB |") == true, "\(tagRow ?? "")")
        // Sizes with their difference, files counted by kind (docs/commands.md#diff).
        let row = output.stdout.split(separator: "\n").last { $0.hasPrefix("| level2 |") }.map(String.init)
        #expect(row?.hasPrefix("| level2 | changed | prefetch | 23.6 KB | 23.6 KB | +") == true, "\(row ?? "")")
        // The download (archive) bytes, then the installed bytes.
        #expect(row?.split(separator: "|").count == 9, "\(row ?? "")")
        #expect(row?.hasSuffix(" | 23.6 KB | ~1 |") == true, "\(row ?? "")")
        #expect(try CommandRunner.run(["diff", "old", "new", "--markdown", "--json"], in: project.root).status == 64)
    }
}
