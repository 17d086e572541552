import Foundation
import Testing

@testable import ODRPackReport

/// docs/commands.md#conventions: a line odrpack prints that begins with `::` (a file name, a server's text) cannot be
/// read by GitHub Actions as a workflow command, with or without `--github`; odrpack's own annotations still are.
@Suite struct WorkflowCommandEscapeTests {
    @Test(arguments: [
        ("::stop-commands::x", "\\x3a:stop-commands::x"),
        ("  ::add-mask::y", "  \\x3a:add-mask::y"),
        ("\t::warning::z", "\t\\x3a:warning::z"),
        ("ok\n::error::w\nplain", "ok\n\\x3a:error::w\nplain"),
        ("a::b", "a::b"),
        (":single", ":single"),
    ])
    func aLineStartingWithTwoColonsIsEscaped(text: String, shown: String) {
        #expect(TerminalText.escaped(text, keepingLineBreaks: true) == shown)
    }

    /// A name alone (one line) is escaped at its start too; the annotations `--github` prints are left as commands.
    @Test func namesAndAnnotations() {
        #expect(TerminalText.escaped("::set-output name=x::1") == "\\x3a:set-output name=x::1")
        #expect(TerminalText.workflowCommands("::error file=a::b\n") == "::error file=a::b\n")
    }

    /// `plan --list-untagged` prints file names at a line's start: with and without `--github`, no line of stdout or
    /// stderr begins with `::` but the annotations'.
    @Test(arguments: [[String](), ["--github"]])
    func untaggedFileNamesCannotBeCommands(extra: [String]) throws {
        let project = try TemporaryProject()
        try project.manifest(
            "version: 1\nbundle-id: com.example.c\nresources-root: R\nresources:\n  - {path: A, tags: [a]}\n"
                + "  - {glob: \"*.none\", tags: [b]}\n")
        try project.file("R/A/a.txt", "x")
        try project.file("R/::stop-commands::token", "y")
        try project.file("R/  ::add-mask::secret", "z")
        let output = try CommandRunner.run(["plan", "--list-untagged"] + extra, in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        let lines = (output.stdout + output.stderr).split(separator: "\n")
        #expect(lines.contains { $0.hasSuffix("\\x3a:stop-commands::token") })
        #expect(lines.contains { $0.hasSuffix("  \\x3a:add-mask::secret") })
        let commands = lines.filter { $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("::") }
        #expect(commands.allSatisfy { $0.hasPrefix("::warning ") }, "\(commands)")
        #expect(commands.count == (extra.isEmpty ? 0 : 1), "\(commands)")
    }
}
