import Foundation
import Testing

@testable import ODRPackCore
@testable import ODRPackReport

/// docs/commands.md#conventions, "Text that cannot take over a terminal": a name or tag holding ESC, CR, LF, BEL,
/// DEL and U+009B (CSI) reaches no terminal raw, through every printer: text output, diagnostics, `--github`,
/// `plan --list-untagged`, `thin --dry-run`, `diff`, error messages. JSON escapes them as JSON does.
@Suite struct ControlCharacterTests {
    /// A title-setting sequence, a line overwrite, a line break, a bell, DEL and a C1 CSI.
    static let evil = "a\u{1B}]0;pwned\u{07}b\rc\nd\u{7F}e\u{9B}2Jf"
    static let shown = "a\\x1b]0;pwned\\x07b\\rc\\nd\\x7fe\\u{9b}2Jf"
    /// The same name in a YAML double-quoted scalar.
    static let yaml = "a\\e]0;pwned\\ab\\rc\\nd\\x7fe\\u009b2Jf"

    /// Control characters a terminal would obey: C0 but tab and LF, DEL, C1.
    static func rawControls(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter {
            ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A) || (0x7F...0x9F).contains($0)
        }
    }

    @Test func theOneFunctionEscapes() {
        #expect(TerminalText.escaped(Self.evil) == Self.shown)
        #expect(TerminalText.escaped("tab\tstays\u{0}") == "tab\tstays\\x00")
        #expect(TerminalText.escaped("two\nlines\r\n", keepingLineBreaks: true) == "two\nlines\\r\n")
        // Text without one is returned as it is, byte for byte (NFD stays NFD).
        #expect(Array(TerminalText.escaped("cafe\u{301} ü").utf8) == Array("cafe\u{301} ü".utf8))
    }

    @Test func diagnosticsTablesAndWorkflowCommandsStayOneLine() {
        let diagnostic = Diagnostic.error(
            .tagInvalid, "tag '\(Self.evil)' holds control characters",
            at: SourceLocation(file: "dir\u{1B}\n/odrpack.yml", line: 3, column: 5), subject: Self.evil)
        #expect(
            diagnostic.formatted
                == "dir\\x1b\\n/odrpack.yml:3:5: error: tag '\(Self.shown)' holds control characters [tag-invalid]")
        #expect(
            GitHubActions.command(diagnostic)
                == "::error file=dir\\x1b%0A/odrpack.yml,line=3,col=5,title=tag-invalid::tag 'a\\x1b]0;pwned\\x07b%0Dc%0Ad\\x7fe\\u{9b}2Jf' holds control characters"
        )
        var table = TextTable([("Tag", .left), ("Size", .right)])
        table.add([Self.evil, "1 B"])
        #expect(
            table.render()
                == "  Tag\(String(repeating: " ", count: Self.shown.count - 3))  Size\n  \(Self.shown)   1 B\n")
    }

    /// A project whose untagged file and tagged file carry the hostile name.
    func project() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest(
            "version: 1\nbundle-id: com.example.ctl\nresources-root: R\nresources:\n  - {path: Levels, tags: [levels]}\n"
        )
        try project.file("R/Levels/\(Self.evil).json", "{}")
        try project.file("R/Untagged/\(Self.evil).txt", "x")
        return project
    }

    @Test func planTextListUntaggedAndDiagnostics() throws {
        let project = try project()
        let listed = CommandRunner.runInProcess(["plan", "--list-untagged"], in: project.root)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout == "Untagged/\(Self.shown).txt\n")

        // A manifest naming a missing path that holds them: path-not-found, as text and as a workflow command. (A tag
        // holding them is tag-invalid, whose message shows the tag escaped already.)
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.ctl
            resources-root: R
            resources:
              - {path: Levels, tags: [levels]}
              - {path: "Missing/\(Self.yaml)", tags: [gone]}

            """)
        let plan = CommandRunner.runInProcess(["plan", "--github"], in: project.root)
        #expect(plan.status == 1)
        #expect(Self.rawControls(plan.stdout + plan.stderr) == [], "\(plan.stdout)\(plan.stderr)")
        let line = try #require(plan.stderr.split(separator: "\n").first { $0.contains("[path-not-found]") })
        #expect(line.contains("Missing/\(Self.shown)"), "\(line)")
        let command = try #require(plan.stdout.split(separator: "\n").first { $0.hasPrefix("::error") })
        #expect(command.contains("Missing/a\\x1b]0;pwned\\x07b%0Dc%0Ad\\x7fe\\u{9b}2Jf"), "\(command)")
        // JSON escapes as JSON does: the document reads back to the name itself.
        let json = CommandRunner.runInProcess(["plan", "--json"], in: project.root)
        let messages = (try json.json()["diagnostics"] as? [[String: Any]] ?? []).compactMap {
            $0["message"] as? String
        }
        #expect(messages.contains { $0.contains("Missing/" + Self.evil) }, "\(messages)")

        // Text output: the pack table and the build summary.
        try project.manifest(
            "version: 1\nbundle-id: com.example.ctl\nresources-root: R\nresources:\n  - {path: Levels, tags: [levels]}\n"
        )
        let text = CommandRunner.runInProcess(["plan"], in: project.root)
        #expect(text.status == 0 && Self.rawControls(text.stdout + text.stderr) == [], "\(text.stdout)")
    }

    @Test func thinDryRunDiffAndErrors() throws {
        let project = try project()
        #expect(CommandRunner.runInProcess(["build", "-o", project.path("out")], in: project.root).status == 0)
        try project.file("Game.app/Info.plist", bytes: AppBundleFixture.infoPlist(bundleId: "com.example.ctl"))
        try project.file("Game.app/Levels/\(Self.evil).json", "{}")
        let thin = CommandRunner.runInProcess(
            ["thin", project.path("Game.app"), project.path("out"), "--dry-run"], in: project.root)
        #expect(thin.status == 0, "\(thin.stderr)")
        #expect(thin.stdout.hasPrefix("remove  Levels/\(Self.shown).json\n"), "\(thin.stdout)")
        #expect(Self.rawControls(thin.stdout + thin.stderr) == [])

        try project.file("R/Levels/\(Self.evil).json", "{\"changed\": true}")
        #expect(CommandRunner.runInProcess(["build", "-o", project.path("new")], in: project.root).status == 0)
        let diff = CommandRunner.runInProcess(["diff", project.path("out"), project.path("new")], in: project.root)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("modified: Levels/\(Self.shown).json\n"), "\(diff.stdout)")
        #expect(Self.rawControls(diff.stdout + diff.stderr) == [])

        // An error message naming a path: `odrpack: error:` with the name escaped.
        let missing = CommandRunner.runInProcess(["verify", project.path("gone\(Self.evil)")], in: project.root)
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("odrpack: error: ") && missing.stderr.contains("gone\(Self.shown)"))
        #expect(Self.rawControls(missing.stderr) == [], "\(missing.stderr)")
    }
}
