import Foundation
import Testing

/// docs/commands.md#scripts (SPEC 6.2, 7): an output FILE that is standard output by any spelling is written through
/// the descriptor; one that is an input of the command, or a file a build folder owns, is refused with nothing
/// written; a replaced file keeps its mode; a build that writes nothing leaves no folder it made; a build folder's
/// lock file is never followed.
@Suite struct OutputHoldTests {
    let streams = ScriptStreamsTests()

    /// `inode` of the file at `path`.
    static func inode(_ path: String) -> UInt64 {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode : 0
    }

    // MARK: Standard output, however it is spelt

    /// Other spellings of standard output append to the log the shell opened, as `/dev/stdout` does: what the path
    /// is (device and inode) decides, not its text. `exec` makes `$$` odrpack's own pid.
    @Test(arguments: ["/dev/./stdout", "//dev//stdout/", "/proc/thread-self/fd/1", "/proc/$$/fd/1", "stdout.link"])
    func anyPathToStandardOutputAppends(path: String) throws {
        let project = try streams.project()
        try project.symlink("stdout.link", to: "/dev/stdout")
        try project.file("ci.log", "step 1\n")
        let inode = Self.inode(project.path("ci.log"))
        let output = try CommandRunner.shell(
            "exec \"$ODRPACK\" report --output \(path) >> ci.log", in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.hasPrefix("Wrote "), "\(output.stderr)")
        let log = try String(contentsOfFile: project.path("ci.log"), encoding: .utf8)
        #expect(log.hasPrefix("step 1\n<!doctype html>"))
        #expect(log.hasSuffix("</html>\n"))
        #expect(Self.inode(project.path("ci.log")) == inode)
        #expect(Self.mode(project.path("stdout.link")) & S_IFMT == S_IFLNK)
    }

    /// Two documents on one stream are a bad command line, however standard output is named.
    @Test(arguments: [
        ("/dev/stdout", "--json"), ("/dev/./stdout", "--markdown"), ("/proc/self/fd/1", "--json"),
        ("out.link", "--json"), ("-", "--github"),
    ])
    func diffRefusesTwoDocumentsOnStandardOutput(path: String, other: String) throws {
        let project = try streams.project()
        #expect(try CommandRunner.run(["build", "-o", "v1"], in: project.root).status == 0)
        try project.symlink("out.link", to: "/dev/stdout")
        let output = try CommandRunner.run(["diff", "v1", "v1", "--html", path, other], in: project.root)
        #expect(output.status == 64)
        #expect(
            output.stderr.hasPrefix(
                "odrpack: error: --html \(path) and \(other) both print on standard output: name an HTML file instead of \(path)\n"
            ), "\(output.stderr)")
        #expect(output.stdout.isEmpty || other == "--json" || other == "--github")
    }

    // MARK: An output that is an input

    /// `report`, `diff --html` and `import-xcode --output` never write over what they read or what a build folder
    /// owns: exit 2 naming it, every file as it was.
    @Test func anOutputThatIsAnInputIsRefused() throws {
        let project = try streams.project()
        #expect(try CommandRunner.run(["build", "-o", "v1"], in: project.root).status == 0)
        #expect(try CommandRunner.run(["build", "-o", "v2", "--layout", "folder"], in: project.root).status == 0)
        try project.symlink("manifest.link", to: "odrpack.yml")
        let cases: [([String], String)] = [
            (["report", "-o", "odrpack.yml"], "it is 'odrpack.yml', which report reads"),
            (["report", "-o", "A/../odrpack.yml"], "it is 'odrpack.yml', which report reads"),
            (["report", "-o", "manifest.link"], "it is 'odrpack.yml', which report reads"),
            (["report", "odrpack.yml", "-o", "./odrpack.yml"], "it is 'odrpack.yml', which report reads"),
            (["report", "-o", "v1/OnDemandResources.plist"], "it is 'OnDemandResources.plist' of the build folder"),
            (["report", "-o", "v1/AssetPackManifestTemplate.plist"], "it is 'AssetPackManifestTemplate.plist' of"),
            (["report", "-o", "v1/odrpack-manifest.json"], "it is 'odrpack-manifest.json' of the build folder"),
            (["report", "-o", "v1/.odrpack.lock"], "it is '.odrpack.lock' of the build folder"),
            (["report", "-o", "v1/OnDemandResources/new.html"], "it is 'OnDemandResources/new.html' of the build"),
            (["report", "-o", "v2/OnDemandResources/x/Info.plist"], "it is 'OnDemandResources/x/Info.plist' of the"),
            (
                ["diff", "v1", "v2", "--html", "v2/odrpack-manifest.json"],
                "it is 'v2/odrpack-manifest.json', which diff"
            ),
            (["diff", "v1/odrpack-manifest.json", "v2", "--html", "v1//odrpack-manifest.json"], "which diff reads"),
            (["diff", "v1", "v2", "--html", "v1/OnDemandResources.plist"], "it is 'OnDemandResources.plist' of"),
        ]
        let before = try snapshot(project)
        for (arguments, said) in cases {
            let output = try CommandRunner.run(arguments, in: project.root)
            #expect(output.status == 2, "\(arguments): \(output.stderr)")
            #expect(output.stderr.contains("odrpack: error: cannot write '"), "\(arguments): \(output.stderr)")
            #expect(output.stderr.contains(said), "\(arguments): \(output.stderr)")
            #expect(try snapshot(project) == before, "\(arguments)")
        }
        // A file beside the build's own ones is the user's to name.
        let beside = try CommandRunner.run(["report", "-o", "v1/report.html"], in: project.root)
        #expect(beside.status == 0, "\(beside.stderr)")
    }

    /// import-xcode never writes over the project it reads, `--force` or not.
    @Test func importXcodeNeverWritesItsProject() throws {
        let project = try TemporaryProject()
        try FileManager.default.removeItem(at: project.root)
        try FileManager.default.copyItem(
            at: TestPaths.fixtures("Xcode").appendingPathComponent("Orchard"), to: project.root)
        let app = project.root.appendingPathComponent("App")
        let pbxproj = project.path("App/Orchard.xcodeproj/project.pbxproj")
        let before = try Data(contentsOf: URL(fileURLWithPath: pbxproj))
        let output = try CommandRunner.run(
            [
                "import-xcode", "Orchard.xcodeproj", "--target", "OrchardTV", "--output",
                "Orchard.xcodeproj/project.pbxproj", "--force",
            ], in: app)
        #expect(output.status == 2)
        #expect(output.stderr.contains("which import-xcode reads"), "\(output.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: pbxproj)) == before)
    }

    /// Every file under the project with its bytes (folders and links by their kind).
    func snapshot(_ project: TemporaryProject) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = project.root.path
        for case let relative as String in FileManager.default.enumerator(atPath: root)! {
            let path = root + "/" + relative
            let kind = Self.mode(path) & S_IFMT
            files[relative] = kind == S_IFREG ? try Data(contentsOf: URL(fileURLWithPath: path)) : Data("\(kind)".utf8)
        }
        return files
    }

    // MARK: The mode of a replaced file

    /// A page written over an existing file keeps that file's mode; a new one is 0644 (umask 022).
    @Test(arguments: [(mode_t(0o600), mode_t(0o600)), (0o640, 0o640), (0o664, 0o664), (0, 0o644)])
    func aReplacedFileKeepsItsMode(existing: mode_t, expected: mode_t) throws {
        let project = try streams.project()
        if existing != 0 {
            try project.file("page.html", "old")
            #expect(chmod(project.path("page.html"), existing) == 0)
        }
        let output = try CommandRunner.shell("umask 022; \"$ODRPACK\" report -o page.html", in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(Self.mode(project.path("page.html")) & 0o7777 == expected)
        #expect(try String(contentsOfFile: project.path("page.html"), encoding: .utf8).hasPrefix("<!doctype html>"))
    }

    // MARK: Folders a command made

    /// A build that stops before writing (an error in the manifest) leaves none of the folders it made for DIR, the
    /// parents included; folders that were there stay.
    @Test(arguments: [("a/b/c", "a", [String]()), ("keep/b/c", "keep/b", ["keep"]), ("c", "c", [])])
    func aBuildThatWritesNothingLeavesNoFolder(output: String, gone: String, kept: [String]) throws {
        let project = try streams.project()
        try project.folder("keep")
        try project.manifest(
            "version: 1\nbundle-id: com.example.streams\nresources:\n  - {path: Missing, tags: [m]}\n")
        let run = try CommandRunner.run(["build", "-o", output], in: project.root)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.path(gone)), "\(output)")
        for folder in kept { #expect(FileManager.default.fileExists(atPath: project.path(folder)), "\(folder)") }
    }

    // MARK: The lock file

    /// `.odrpack.lock` as a symbolic link (a restored CI cache) is never followed by any command: exit 2 naming it,
    /// and what it points to is neither created nor changed.
    @Test(arguments: [
        ["build", "-o", "out"], ["build", "-o", "out", "--no-wait"], ["verify", "out"], ["thin", "Game.app", "out"],
    ])
    func aLinkedLockFileIsNeverFollowed(arguments: [String]) throws {
        let project = try streams.project()
        #expect(try CommandRunner.run(["build", "-o", "out"], in: project.root).status == 0)
        try project.file("Game.app/Info.plist", "x")
        for target in ["made-by-the-link", "existing"] {
            if target == "existing" { try project.file("existing", "mine") }
            try FileManager.default.removeItem(atPath: project.path("out/.odrpack.lock"))
            try project.symlink("out/.odrpack.lock", to: project.path(target))
            let output = try CommandRunner.run(arguments, in: project.root)
            #expect(output.status == 2, "\(arguments): \(output.stderr)")
            #expect(
                output.stderr.hasPrefix("odrpack: error: the lock file '")
                    && output.stderr.contains("out/.odrpack.lock' is a symbolic link, which odrpack never follows"),
                "\(arguments): \(output.stderr)")
            if target == "existing" {
                #expect(try String(contentsOfFile: project.path("existing"), encoding: .utf8) == "mine")
            } else {
                #expect(!FileManager.default.fileExists(atPath: project.path(target)))
            }
        }
    }
}
