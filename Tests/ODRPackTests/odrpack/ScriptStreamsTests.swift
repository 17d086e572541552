import Foundation
import Testing

/// docs/commands.md#scripts (SPEC 6.2): `-` and `/dev/stdout` as an output FILE, a missing parent folder made, and a
/// closed pipe that is no failure, through the built binary and real pipes and redirections.
@Suite struct ScriptStreamsTests {
    func project() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.streams
            resources:
              - {path: A, tags: [alpha]}
              - {path: B, tags: [beta]}

            """)
        try project.file("A/a.json", String(repeating: "a", count: 100))
        try project.file("B/b.json", String(repeating: "b", count: 200))
        return project
    }

    // MARK: Standard output as a file

    @Test func reportDashWritesThePageToStdoutAndItsFiguresToStderr() throws {
        let project = try project()
        let output = try CommandRunner.run(["report", "--output", "-"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("<!doctype html>"))
        #expect(output.stdout.hasSuffix("</html>\n"))
        // The page is stdout: its figures on stderr, without a "Wrote -" (docs/commands.md#report-and-ci).
        #expect(output.stderr == "2 packs, 2 files, 0 errors, 0 warnings\n")
        #expect(!FileManager.default.fileExists(atPath: project.path("-")))
    }

    /// `>> ci.log` keeps the log's earlier lines: the page is appended through the shell's descriptor, never renamed
    /// over the log.
    @Test func reportToDevStdoutAppendsToTheRedirectedLog() throws {
        let project = try project()
        try project.file("ci.log", "step 1\nstep 2\n")
        for link in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
            try project.file("ci.log", "step 1\nstep 2\n")
            let inode = try FileManager.default.attributesOfItem(atPath: project.path("ci.log"))[.systemFileNumber]
            let output = try CommandRunner.shell("\"$ODRPACK\" report --output \(link) >> ci.log", in: project.root)
            #expect(output.status == 0, "\(link): \(output.stderr)")
            #expect(output.stderr == "Wrote \(link): 2 packs, 2 files, 0 errors, 0 warnings\n", "\(link)")
            let log = try String(contentsOfFile: project.path("ci.log"), encoding: .utf8)
            #expect(log.hasPrefix("step 1\nstep 2\n<!doctype html>"), "\(link)")
            #expect(log.hasSuffix("</html>\n"), "\(link)")
            // The same file, not a new one renamed over it.
            #expect(
                try FileManager.default.attributesOfItem(atPath: project.path("ci.log"))[.systemFileNumber] as? Int
                    == inode as? Int, "\(link)")
        }
    }

    /// A character device is written in place: /dev/null stays a device, and no file appears beside it.
    @Test func aDeviceIsWrittenInPlace() throws {
        let project = try project()
        let output = try CommandRunner.run(["report", "--output", "/dev/null"], in: project.root)
        #expect(output.status == 0)
        #expect(output.stdout == "Wrote /dev/null: 2 packs, 2 files, 0 errors, 0 warnings\n")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    /// A named pipe is written in place, as a shell's `>` writes it.
    @Test func aNamedPipeIsWrittenInPlace() throws {
        let project = try project()
        #expect(mkfifo(project.path("page.fifo"), 0o600) == 0)
        let output = try CommandRunner.shell(
            "cat page.fifo > got.html & \"$ODRPACK\" report --output page.fifo; status=$?; wait; exit $status",
            in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try String(contentsOfFile: project.path("got.html"), encoding: .utf8).hasPrefix("<!doctype html>"))
        var info = stat()
        #expect(lstat(project.path("page.fifo"), &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func aMissingParentFolderOfTheOutputIsCreated() throws {
        let project = try project()
        let output = try CommandRunner.run(["report", "--output", "out/html/report.html"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "Wrote out/html/report.html: 2 packs, 2 files, 0 errors, 0 warnings\n")
        #expect(
            try String(contentsOfFile: project.path("out/html/report.html"), encoding: .utf8).hasPrefix(
                "<!doctype html>"))
    }

    /// `diff --html FILE` prints one `Wrote FILE` line instead of the text report; `--html -` puts the page on stdout
    /// and that line on stderr.
    @Test func diffHTMLPrintsOneWroteLine() throws {
        let project = try project()
        #expect(try CommandRunner.run(["build", "-o", "v1"], in: project.root).status == 0)
        try project.file("B/b.json", String(repeating: "B", count: 210))
        #expect(try CommandRunner.run(["build", "-o", "v2"], in: project.root).status == 0)
        let file = try CommandRunner.run(["diff", "v1", "v2", "--html", "pages/diff.html"], in: project.root)
        #expect(file.status == 0, "\(file.stderr)")
        #expect(file.stdout == "Wrote pages/diff.html\n")
        #expect(file.stderr.isEmpty)
        #expect(FileManager.default.fileExists(atPath: project.path("pages/diff.html")))
        let dash = try CommandRunner.run(["diff", "v1", "v2", "--html", "-"], in: project.root)
        #expect(dash.status == 0)
        #expect(dash.stdout.hasPrefix("<!doctype html>"))
        #expect(dash.stderr == "Wrote -\n")
        let both = try CommandRunner.run(["diff", "v1", "v2", "--html", "-", "--json"], in: project.root)
        #expect(both.status == 64)
        #expect(
            both.stderr.hasPrefix(
                "odrpack: error: --html - and --json both print on standard output: name an HTML file instead of -\n"))
    }

    /// `import-xcode --output -` is the drift check (`… | diff - odrpack.yml`): the same text as the file written in
    /// the current folder (resources-root relative to it, not to /dev), and no `--force` over an existing manifest.
    @Test func importXcodeToStdoutMatchesTheFileInTheCurrentFolder() throws {
        let project = try TemporaryProject()
        try FileManager.default.removeItem(at: project.root)
        try FileManager.default.copyItem(
            at: TestPaths.fixtures("Xcode").appendingPathComponent("Orchard"), to: project.root)
        let app = project.root.appendingPathComponent("App")
        let file = try CommandRunner.run(["import-xcode", "Orchard.xcodeproj", "--target", "OrchardTV"], in: app)
        #expect(file.status == 0, "\(file.stderr)")
        let written = try String(contentsOfFile: project.path("App/odrpack.yml"), encoding: .utf8)
        #expect(written.contains("resources-root: \"..\"\n"))
        for target in ["-", "/dev/stdout"] {
            let stream = try CommandRunner.run(
                ["import-xcode", "Orchard.xcodeproj", "--target", "OrchardTV", "--output", target], in: app)
            #expect(stream.status == 0, "\(target): \(stream.stderr)")
            #expect(stream.stdout == written, "\(target)")
            #expect(stream.stderr.hasPrefix("Wrote \(target): "), "\(target)")
        }
        let drift = try CommandRunner.shell(
            "\"$ODRPACK\" import-xcode Orchard.xcodeproj --target OrchardTV --output - 2>/dev/null | diff - odrpack.yml",
            in: app)
        #expect(drift.status == 0, "\(drift.stdout)")
    }

    // MARK: A closed pipe

    /// `odrpack plan --json | head -1` once head is gone: nothing said about it, the plan's own status.
    @Test func aClosedPipeIsNoFailure() throws {
        let project = try project()
        for arguments in [["plan", "--json"], ["plan"], ["validate"]] {
            let run = try CommandRunner.runWithClosedStdout(arguments, in: project.root)
            #expect(run.status == 0, "\(arguments)")
            #expect(run.stderr.isEmpty, "\(arguments): \(run.stderr)")
        }
        let page = try CommandRunner.runWithClosedStdout(["report", "--output", "-"], in: project.root)
        #expect(page.status == 0)
        #expect(page.stderr == "2 packs, 2 files, 0 errors, 0 warnings\n")
        // The status the work has: a manifest with an error is still exit 1.
        try project.manifest("version: 1\nbundle-id: com.example.streams\nresources:\n  - {path: Z, tags: [z]}\n")
        let failing = try CommandRunner.runWithClosedStdout(["plan", "--json"], in: project.root)
        #expect(failing.status == 1)
        #expect(!failing.stderr.contains("Broken pipe") && !failing.stderr.contains("standard output"))
    }

    /// A build whose reader went away still finishes and commits.
    @Test func aBuildIntoAClosedPipeStillCommits() throws {
        let project = try project()
        let run = try CommandRunner.runWithClosedStdout(["build", "-o", "out", "--json"], in: project.root)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
    }

    /// `set -o pipefail; odrpack plan --json | head -c 1`: the CI step passes.
    @Test func pipefailStepPasses() throws {
        let project = try project()
        let output = try CommandRunner.shell("\"$ODRPACK\" plan --json | head -c 1", in: project.root)
        #expect(output.status == 0)
        #expect(output.stdout == "{")
        #expect(output.stderr.isEmpty)
    }

    /// Any other failed write to stdout (a full disk) stays exit 2.
    @Test func aFullDiskOnStdoutIsStillExit2() throws {
        let project = try project()
        let output = try CommandRunner.shell("\"$ODRPACK\" plan --json > /dev/full", in: project.root)
        #expect(output.status == 2)
        #expect(output.stderr.hasPrefix("odrpack: error: cannot write to standard output: "))
    }
}
