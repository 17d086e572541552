import Foundation
import Testing

@testable import ODRPackCore

/// docs/commands.md#scripts (SPEC 6.2, "Command-line mistakes answered with the fix, in odrpack's voice"): every
/// message of the argument parser as `odrpack: error: <lowercase>…: <fix>`, exit 64.
@Suite struct UsageMessageTests {
    /// In-process: a bad command line is found before any file is read.
    func run(_ arguments: [String]) throws -> CommandRunner.Output {
        let project = try TemporaryProject()
        return CommandRunner.runInProcess(arguments, in: project.root)
    }

    @Test func anUnknownCommandNamesTheClosestOne() throws {
        let output = try run(["bulid"])
        #expect(output.status == 64)
        #expect(output.stderr == "odrpack: error: no such command 'bulid': did you mean 'build'?\n")
        #expect(output.stdout.isEmpty)
        let far = try run(["frobnicate"])
        #expect(far.status == 64)
        #expect(
            far.stderr
                == """
                odrpack: error: no such command 'frobnicate': the commands are init, plan, validate, build, verify, \
                diff, thin, report, import-xcode, ipa, upload, submit, status (see `odrpack --help`)

                """)
        // Under --json, the error document too.
        let json = try run(["valdiate", "--json"])
        #expect(json.status == 64)
        let error = try json.json()["error"] as? [String: Any]
        #expect(error?["code"] as? String == "usage")
        #expect(error?["message"] as? String == "no such command 'valdiate': did you mean 'validate'?")
    }

    /// `build --outptu x`: the typo is named, not the missing --output it causes.
    @Test func anUnknownOptionIsNamedBeforeAMissingOne() throws {
        let output = try run(["build", "--outptu", "x"])
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("odrpack: error: unknown option '--outptu': did you mean '--output'?\n"))
        #expect(!output.stderr.contains("Help:"))
        #expect(output.stderr.contains("Usage: odrpack build"))
        let alone = try run(["plan", "--jsno"])
        #expect(alone.stderr.hasPrefix("odrpack: error: unknown option '--jsno': did you mean '--json'?\n"))
    }

    @Test func theParsersSentencesAreRewritten() throws {
        let missing = try run(["build"])
        #expect(missing.status == 64)
        #expect(
            missing.stderr.hasPrefix(
                "odrpack: error: missing --output <output>: add it (see `odrpack build --help`)\n"))
        let value = try run(["build", "-o", "x", "--layout", "tar"])
        #expect(value.status == 64)
        #expect(value.stderr.hasPrefix("odrpack: error: 'tar' is not a valid value for --layout <layout>"))
        let noValue = try run(["report", "--output"])
        #expect(noValue.status == 64)
        #expect(
            noValue.stderr.hasPrefix(
                "odrpack: error: --output <output> needs a value: write --output VALUE or --output=VALUE\n"))
        let extra = try run(["verify", "a", "b"])
        #expect(extra.status == 64)
        #expect(
            extra.stderr.hasPrefix(
                "odrpack: error: unexpected argument 'b': see `odrpack verify --help` for what odrpack verify takes\n"))
        // No capitalised sentence of the parser is left on the first line.
        for output in [missing, value, noValue, extra] {
            let first = output.stderr.split(separator: "\n").first.map(String.init) ?? ""
            #expect(!first.contains("Error:") && first.dropFirst("odrpack: error: ".count).first?.isUppercase == false)
        }
    }

    /// Every option that takes a value also takes `--option=value`, `upload --wait=60` included.
    @Test func optionEqualsValue() throws {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.eq\nresources:\n  - {path: A, tags: [a]}\n")
        try project.file("A/a.json", "{}")
        let out = project.path("out")
        #expect(
            CommandRunner.runInProcess(["build", "--output=\(out)", "--level=6", "--jobs=1"], in: project.root).status
                == 0)
        #expect(
            CommandRunner.runInProcess(
                ["report", "--output=\(project.path("r.html"))", "--profile=ios"], in: project.root
            ).status == 0)
        #expect(FileManager.default.fileExists(atPath: project.path("r.html")))
        // --wait=60 parses as --wait 60: the failure is about the build (an ODR one), past the command line.
        let wait = CommandRunner.runInProcess(["upload", out, "--all", "--dry-run", "--wait=60"], in: project.root)
        #expect(
            wait.stderr.hasSuffix(
                "odrpack: error: this is an On-Demand Resources build: On-Demand Resources travel inside the IPA: odrpack ipa\n"
            ), "\(wait.stderr)")
    }

    @Test func versionNamesTheTool() throws {
        let output = try run(["--version"])
        #expect(output.status == 0)
        #expect(output.stdout == "odrpack \(ToolVersion.current)\n")
    }
}
