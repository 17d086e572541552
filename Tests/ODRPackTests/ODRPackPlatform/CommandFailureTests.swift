import Testing

@testable import ODRPackPlatform

/// A failed command odrpack runs (the sign command, the Background Assets packager) carries its facts (its role, its
/// status or signal, the pack, the file) and is said in one place: each prints, byte for byte, the sentence its
/// producer wrote before it held facts, and keeps the `--json` code `command-failed` (docs/commands.md#json).
@Suite struct CommandFailureTests {
    static let howToInstall =
        "install Xcode 26 or later (or its command line tools) on a Mac, which bring 'xcrun ba-package', or pass "
        + "--ba-package CMD with {manifest} and {output} where the pack's manifest and archive go; nothing was written"

    static let expected: [(CommandFailure, String)] = [
        (
            .cannotStart("the sign command", reason: "No such file"),
            "cannot run the sign command through /bin/sh: No such file"
        ),
        (
            .exited("the sign command", status: 3, on: "'/o/p.assetpack'", commandLine: "sign '/o/p.assetpack'"),
            "the sign command exited with 3 on '/o/p.assetpack': fix the command (it ran as: /bin/sh -c sign "
                + "'/o/p.assetpack'); the previous output is unchanged"
        ),
        (
            .killed("the Background Assets packager", signal: 9, on: "pack 'level1'", commandLine: "ba-package x"),
            "the Background Assets packager was killed by signal 9 on pack 'level1': fix the command (it ran as: "
                + "/bin/sh -c ba-package x); the previous output is unchanged"
        ),
        (
            .signerRemoved("a.png", pack: "level1", previousOutputUnchanged: false),
            "the sign command removed 'a.png' from pack 'level1': a signer may add files to a pack, not remove them"
        ),
        (
            .signerRemoved("Info.plist", pack: "level1", previousOutputUnchanged: true),
            "the sign command removed 'Info.plist' from pack 'level1': a signer may add files to a pack, not remove "
                + "them; the previous output is unchanged"
        ),
        (
            .signerChanged("a.png", pack: "level1"),
            "the sign command changed the bytes of 'a.png' in pack 'level1': a signer may add files to a pack, not "
                + "change them; the previous output is unchanged"
        ),
        (
            .packagerWroteNoArchive(pack: "level1", archive: "/o/.tmp/level1.aar"),
            "the Background Assets packager wrote no archive for pack 'level1' (it exited 0, but "
                + "'/o/.tmp/level1.aar' is missing or empty): check that it writes its output where {output} says; "
                + "the previous output is unchanged"
        ),
        (
            .noPackager(xcrunOnPath: true),
            "no Background Assets packager: ba-package is not on PATH and 'xcrun --find ba-package' does not find it "
                + "(Xcode before 26). To build Background Assets packs, " + howToInstall
        ),
        (
            .noPackager(xcrunOnPath: false),
            "no Background Assets packager: neither ba-package nor xcrun is on PATH. To build Background Assets "
                + "packs, " + howToInstall
        ),
        (
            .packagerVersionFailed(program: "xcrun ba-package"),
            "the Background Assets packager 'xcrun ba-package --version' failed, so it cannot be used: " + howToInstall
        ),
    ]

    @Test func eachFailurePrintsItsSentence() {
        for (failure, message) in Self.expected {
            #expect(ODRPackError.commandFailed(failure).description == message)
            #expect(ODRPackError.commandFailed(failure).jsonCode == "command-failed")
        }
    }

    /// A command that exits non-zero or is killed is refused with its role, its status or signal, the subject and
    /// the command line it ran as.
    @Test func aFailedCommandThrowsItsStatusOrSignal() {
        #expect(
            throws: ODRPackError.commandFailed(
                .exited("the sign command", status: 3, on: "'x'", commandLine: "exit 3"))
        ) { try ShellCommand.run("exit 3", what: "the sign command", on: "'x'") }
        #expect(
            throws: ODRPackError.commandFailed(
                .killed("the sign command", signal: 9, on: "'x'", commandLine: "kill -9 $$"))
        ) { try ShellCommand.run("kill -9 $$", what: "the sign command", on: "'x'") }
        #expect(throws: Never.self) { try ShellCommand.run("true", what: "the sign command", on: "'x'") }
    }
}
