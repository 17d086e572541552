import Foundation
import Testing

/// `ipa --output` follows the rule of every output FILE (docs/commands.md#scripts, docs/store.md#ipa): `-` is standard
/// output; a device, a pipe or standard output by any path is written in place, never replaced by a regular file; and
/// a live `ipa`'s work folder is told from an abandoned one by its lock, never by a process id.
extension IPACommandTests {
    /// The IPA's first bytes: a zip's local header.
    static func isZip(_ path: String) -> Bool {
        (FileManager.default.contents(atPath: path)?.prefix(4)).map(Array.init) == [0x50, 0x4B, 0x03, 0x04]
    }

    /// Whatever the spelling of standard output, the IPA goes through the descriptor the shell opened (appended to the
    /// redirected file, which keeps its inode), the summary to stderr, and no file or temporary appears.
    @Test(arguments: ["-", "/dev/stdout", "/dev/./stdout", "/proc/self/fd/1", "stdout.link"])
    func anIPAToStandardOutputGoesThroughTheDescriptor(path: String) throws {
        let project = try thinTests.builtGame()
        try project.symlink("stdout.link", to: "/dev/stdout")
        try project.folder("tmp")
        let output = try CommandRunner.shell(
            "TMPDIR=\"$PWD/tmp\" \"$ODRPACK\" ipa Game.app out --output \(path) > got.ipa", in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.hasPrefix("Wrote \(path) ("), "\(output.stderr)")
        #expect(try Self.read(project.path("got.ipa")).names.contains("Payload/Game.app/Info.plist"))
        #expect(try temporaries(project) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.path("tmp")) == [])
        #expect(!FileManager.default.fileExists(atPath: project.path("-")))
        #expect(OutputHoldTests.mode(project.path("stdout.link")) & S_IFMT == S_IFLNK)
    }

    /// `>> log` keeps what the log held: the IPA is appended, the log is the same file.
    @Test func anIPAToDevStdoutAppends() throws {
        let project = try thinTests.builtGame()
        try project.file("log", "")
        let inode = OutputHoldTests.inode(project.path("log"))
        let output = try CommandRunner.shell("\"$ODRPACK\" ipa Game.app out -o /dev/stdout >> log", in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(OutputHoldTests.inode(project.path("log")) == inode)
        #expect(Self.isZip(project.path("log")))
    }

    /// A named pipe is written in place, and stays a pipe.
    @Test func anIPAIntoANamedPipe() throws {
        let project = try thinTests.builtGame()
        #expect(mkfifo(project.path("ipa.fifo"), 0o600) == 0)
        let output = try CommandRunner.shell(
            "cat ipa.fifo > got.ipa & \"$ODRPACK\" ipa Game.app out -o ipa.fifo; status=$?; wait; exit $status",
            in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("Wrote ipa.fifo ("), "\(output.stdout)")
        #expect(OutputHoldTests.mode(project.path("ipa.fifo")) & S_IFMT == S_IFIFO)
        #expect(try Self.read(project.path("got.ipa")).names.contains("Payload/Game.app/Info.plist"))
    }

    /// A character device (here a null device made in the project, so the machine's /dev is never at stake) stays a
    /// device: the IPA is written into it, no regular file replaces it.
    @Test(.enabled(if: getuid() == 0, "needs root to make a device node"))
    func anIPAIntoADeviceKeepsTheDevice() throws {
        let project = try thinTests.builtGame()
        // Major 1, minor 3: the null device.
        try #require(mknod(project.path("null"), S_IFCHR | 0o666, dev_t(0x103)) == 0, "mknod: \(errno)")
        let output = try ipa(project, ["Game.app", "out", "-o", "null"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(OutputHoldTests.mode(project.path("null")) & S_IFMT == S_IFCHR)
        #expect(try temporaries(project) == [])
    }

    /// The IPA cannot share standard output with the JSON document or the workflow commands.
    @Test(arguments: [("-", "--json"), ("/dev/stdout", "--json"), ("/proc/self/fd/1", "--github"), ("-", "--github")])
    func anIPAOnStandardOutputRefusesASecondDocument(path: String, other: String) throws {
        let project = try thinTests.builtGame()
        let output = try ipa(project, ["Game.app", "out", "-o", path, other])
        #expect(output.status == 64)
        #expect(
            output.stderr.contains(
                "odrpack: error: --output \(path) and \(other) both print on standard output: name an .ipa file instead of \(path)"
            ), "\(output.stderr)")
    }

    /// A work folder is abandoned when its lock is free, whatever its process id says: one named for a live process
    /// (pid 1) but unlocked goes; one whose process id this namespace cannot see (another PID namespace) but whose
    /// lock is held stays, as do other files.
    @Test func aWorkFolderIsAbandonedWhenItsLockIsFree() throws {
        let project = try thinTests.builtGame()
        let unlocked = ".odrpack-tmp-1-0123456789abcdef0123-work"
        let held = ".odrpack-tmp-999999999-0123456789abcdef0123-work"
        let other = ".odrpack-tmp-1-0123456789abcdef0123-work-not-ipa"
        for name in [unlocked, held, other] { try project.file(name + "/keep", "keep") }
        let descriptor = open(project.path(held), O_RDONLY | O_DIRECTORY)
        try #require(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
        defer { close(descriptor) }
        let next = try ipa(project, ["Game.app", "out", "-o", "Other.ipa"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try temporaries(project) == [held, other].sorted())
    }

    /// An app's property list is read only up to a bound: a 1 GiB Info.plist (sparse here) is exit 2 at once, naming
    /// it, in `ipa` as in `thin`.
    @Test(arguments: ["ipa", "thin"])
    func aHugeInfoPlistIsRefused(command: String) throws {
        let project = try thinTests.builtGame()
        try FileManager.default.removeItem(atPath: project.path("Game.app/Info.plist"))
        try project.sparseFile("Game.app/Info.plist", size: 1 << 30)
        let arguments = command == "ipa" ? ["ipa", "Game.app", "out", "-o", "Game.ipa"] : ["thin", "Game.app", "out"]
        let started = Date()
        let output = try CommandRunner.run(arguments, in: project.root)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(output.status == 2, "\(output.stderr)")
        #expect(
            output.stderr.contains("Info.plist' is over 64 MiB, more than any app's property list"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.ipa")))
    }
}
