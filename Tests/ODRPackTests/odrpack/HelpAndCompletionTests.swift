import Foundation
import Testing

/// SPEC 6.1, "Help that teaches": the bash completion script completes files, folders and option values (driven
/// through its own completion function, as bash's `complete -F` calls it), and odrpack(1) (docs/odrpack.1, installed
/// by `make install`) is in step with every command's --help.
@Suite struct HelpAndCompletionTests {
    static let bash = "/bin/bash"

    /// What `_odrpack` offers for the command line `words`, the last being the word under the cursor.
    func complete(_ words: [String], in folder: URL, script: URL) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let previous = words.count >= 2 ? words[words.count - 2] : ""
        let line = words.joined(separator: " ")
        let program = """
            source '\(script.path)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=\(line.utf8.count)
            _odrpack odrpack '\(words.last ?? "")' '\(previous)'
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = try CommandRunner.run(
            ["--norc", "--noprofile", "-c", program], in: folder, executable: URL(fileURLWithPath: Self.bash))
        #expect(output.status == 0, "\(output.stderr)")
        return output.stdout.split(separator: "\n").map(String.init).filter { !$0.isEmpty }.sorted()
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: bash)))
    func bashCompletesPathsAndValues() throws {
        let project = try TemporaryProject()
        try project.file("build/odr/odrpack-manifest.json", "{}")
        try project.file("notes.txt", "x")
        try project.file("Game.app/Info.plist", "x")
        let script = project.root.appendingPathComponent("odrpack.bash")
        let generated = CommandRunner.runInProcess(["--generate-completion-script", "bash"])
        #expect(generated.status == 0)
        try Data(generated.stdout.utf8).write(to: script)
        let entries = ["Game.app", "build", "notes.txt", "odrpack.bash"]

        #expect(try complete(["odrpack", "verify", ""], in: project.root, script: script) == entries)
        #expect(try complete(["odrpack", "verify", "b"], in: project.root, script: script) == ["build"])
        #expect(try complete(["odrpack", "plan", ""], in: project.root, script: script).contains("notes.txt"))
        #expect(try complete(["odrpack", "diff", "build", ""], in: project.root, script: script) == entries)
        // Folders only where only a folder will do.
        #expect(try complete(["odrpack", "thin", ""], in: project.root, script: script) == ["Game.app", "build"])
        #expect(
            try complete(["odrpack", "build", "-o", ""], in: project.root, script: script) == ["Game.app", "build"])
        #expect(try complete(["odrpack", "init", ""], in: project.root, script: script) == ["Game.app", "build"])
        // ipa and upload complete paths too: the app (a folder or an .ipa), build folders, the IPA to write.
        #expect(try complete(["odrpack", "ipa", ""], in: project.root, script: script) == entries)
        #expect(
            try complete(["odrpack", "ipa", "Game.app", ""], in: project.root, script: script) == ["Game.app", "build"])
        #expect(try complete(["odrpack", "ipa", "-o", "G"], in: project.root, script: script) == ["Game.app"])
        #expect(try complete(["odrpack", "upload", ""], in: project.root, script: script) == ["Game.app", "build"])
        #expect(
            try complete(["odrpack", "upload", "--since", "b"], in: project.root, script: script) == ["build"])

        let values: [([String], [String])] = [
            (["plan", "--profile"], ["background-assets", "default", "ios", "ios18", "tvos"]),
            (["report", "--profile"], ["background-assets", "default", "ios", "ios18", "tvos"]),
            (["build", "--format"], ["background-assets", "odr"]),
            (["build", "--layout"], ["folder", "zip"]),
            (["build", "--compression"], ["auto", "deflate", "store"]),
            (["build", "--progress"], ["always", "auto", "never"]),
            (["verify", "--progress"], ["always", "auto", "never"]),
            (["validate", "--color"], ["always", "auto", "never"]),
            (["diff", "--color"], ["always", "auto", "never"]),
        ]
        for (arguments, expected) in values {
            #expect(
                try complete(["odrpack"] + arguments + [""], in: project.root, script: script) == expected,
                "\(arguments)")
        }
    }

    @Test func zshAndFishScriptsKnowTheValuesToo() throws {
        for shell in ["zsh", "fish"] {
            let script = CommandRunner.runInProcess(["--generate-completion-script", shell])
            #expect(script.status == 0)
            for value in ["ios18", "background-assets", "folder", "deflate", "never"] {
                #expect(script.stdout.contains(value), "\(shell): \(value)")
            }
        }
    }

    // MARK: odrpack(1)

    static var manPage: String {
        get throws {
            let source = try String(
                contentsOf: TestPaths.repository.appendingPathComponent("docs/odrpack.1"), encoding: .utf8)
            return source.replacingOccurrences(of: "\\-", with: "-")
        }
    }

    /// The part of the page from `.SS name` (or `.SH name`) to the next heading.
    static func section(_ heading: String, in page: String) -> String {
        guard let start = page.range(of: "\n\(heading)\n") else { return "" }
        let rest = page[start.upperBound...]
        let end = rest.range(of: "\n.S")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test func theManPageHasTheSectionsSpecNames() throws {
        let page = try Self.manPage
        #expect(page.contains(".TH ODRPACK 1 "))
        let exit = Self.section(".SH EXIT STATUS", in: page)
        for code in ["0", "1", "2", "64", "130"] { #expect(exit.contains(".B \(code)\n"), "\(code)") }
        let environment = Self.section(".SH ENVIRONMENT", in: page)
        for variable in [
            "NO_COLOR", "CLICOLOR_FORCE", "FORCE_COLOR", "SOURCE_DATE_EPOCH", "ODRPACK_CACHE_DIR",
            "GITHUB_STEP_SUMMARY",
            "ASC_KEY_ID", "ASC_ISSUER_ID", "ASC_PRIVATE_KEY_PATH", "ASC_PRIVATE_KEY", "ASC_APP_ID", "ODRPACK_ASC_API",
        ] {
            #expect(environment.contains(".B \(variable)\n"), "\(variable)")
        }
        #expect(!Self.section(".SH FILES", in: page).isEmpty)
        #expect(!Self.section(".SH EXAMPLES", in: page).isEmpty)
    }

    /// Every command of `odrpack --help` has its section, every option its --help lists is in that section or among
    /// the options every command takes, and every example its --help ends with is among the page's EXAMPLES.
    @Test func theManPageIsInStepWithHelp() throws {
        let page = try Self.manPage
        let root = CommandRunner.runInProcess(["--help"])
        let list = root.stdout.components(separatedBy: "SUBCOMMANDS:\n").last?.components(separatedBy: "\n\n").first
        let commands = list?.split(separator: "\n").compactMap {
            line -> String? in
            let name = line.drop(while: { $0 == " " }).prefix(while: { $0 != " " })
            return line.hasPrefix("  ") && !line.hasPrefix("   ") && !name.isEmpty && name != "help"
                ? String(name) : nil
        }
        let names = try #require(commands)
        #expect(names.count >= 9)
        let common = Self.section(".SH OPTIONS", in: page)
        let examples = Self.section(".SH EXAMPLES", in: page)
        for name in names {
            let section = Self.section(".SS \(name)", in: page)
            #expect(!section.isEmpty, "no section for \(name)")
            let help = CommandRunner.runInProcess([name, "--help"]).stdout
            let options = help.components(separatedBy: "OPTIONS:\n").last?.components(separatedBy: "\nEXAMPLES:").first
            // The names that open the option lines (`  -o, --output <output>   The folder to write.`).
            let flags = Set(
                (options ?? "").split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap { line in
                    line.split(separator: " ").prefix(while: { $0.hasPrefix("-") || $0.hasPrefix("<") }).map {
                        $0.hasSuffix(",") ? String($0.dropLast()) : String($0)
                    }.filter { $0.hasPrefix("--") }
                })
            for flag in flags {
                #expect(section.contains(flag) || common.contains(flag), "odrpack(1) lacks \(name) \(flag)")
            }
            for line in help.components(separatedBy: "\nEXAMPLES:\n").last?.split(separator: "\n") ?? []
            where line.hasPrefix("    odrpack ") {
                #expect(examples.contains(line.dropFirst(4)), "odrpack(1) lacks the example \(line)")
            }
        }
    }

    /// `upload` takes one BUILD_DIR, and its usage says so (docs/commands.md#scripts).
    @Test func uploadUsageShowsOneBuildDir() throws {
        let help = CommandRunner.runInProcess(["upload", "--help"]).stdout
        #expect(help.contains("USAGE: odrpack upload <build-dir> (--since <old> | --all) [<options>]\n"))
        #expect(!help.contains("<build-dir> ..."))
    }

    /// `submit` and `status` take one BUILD_DIR too, and their usage says so (SPEC 6.2, 15.5, 15.6).
    @Test func submitAndStatusUsageShowOneBuildDir() throws {
        let submit = CommandRunner.runInProcess(["submit", "--help"]).stdout
        #expect(
            submit.contains(
                "USAGE: odrpack submit <build-dir> [--platform <platform>] [--dry-run] [--wait [<seconds>]] [<options>]\n"
            ))
        #expect(!submit.contains("<build-dir> ..."))
        let status = CommandRunner.runInProcess(["status", "--help"]).stdout
        #expect(
            status.contains("USAGE: odrpack status <build-dir> [--until <state>] [--timeout <seconds>] [<options>]\n"))
        #expect(!status.contains("<build-dir> ..."))
    }
}
