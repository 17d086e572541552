import Testing

@testable import ODRPackPlatform

/// The failures of a command that will not write where it was told carry their facts (the lock file, the output as
/// given, the input or build folder it would destroy) and are said in one place: each prints, byte for byte, the
/// sentence its producer wrote before it held facts, and keeps the `--json` code `unusable-input`
/// (docs/commands.md#json).
@Suite struct OutputRefusalTests {
    static let expected: [(OutputFailure, String)] = [
        (
            .lockFileIsLink("out/.odrpack.lock"),
            "the lock file 'out/.odrpack.lock' is a symbolic link, which odrpack never follows: remove it (a build "
                + "makes its own)"
        ),
        (
            .lockFileNotRegular("out/.odrpack.lock"),
            "the lock file 'out/.odrpack.lock' is not a regular file: remove it (a build makes its own)"
        ),
        (
            .outputIsInput(output: "r.json", input: "odrpack.yml", command: "report"),
            "cannot write 'r.json': it is 'odrpack.yml', which report reads, and writing it would destroy it; name "
                + "another file"
        ),
        (
            .outputIsBuildFolderFile(output: "x.json", relative: "odrpack-manifest.json", folder: "/w/out"),
            "cannot write 'x.json': it is 'odrpack-manifest.json' of the build folder '/w/out', which only odrpack "
                + "writes; name a file outside the build's own files"
        ),
        (.spliceNotAnObject, "a JSON document to splice is not an object with members"),
    ]

    @Test func eachFailurePrintsItsSentence() {
        for (failure, message) in Self.expected {
            #expect(failure.description == message)
            #expect(ODRPackError.output(failure).description == message)
            #expect(ODRPackError.output(failure).jsonCode == "unusable-input")
        }
    }

    /// The producer throws the facts: a lock file that is a link is named, never followed.
    @Test func aLockFileThatIsALinkIsThrownAsItsFacts() throws {
        let project = try TemporaryProject()
        try project.file("target")
        try project.file("out/keep")
        try project.symlink("out/lock", to: project.path("target"))
        let folder = FilePath(project.path("out"))
        #expect(throws: ODRPackError.output(.lockFileIsLink(folder.joined("lock")))) {
            _ = try OutputLock(folder: folder, fileName: "lock", wait: false) {}
        }
    }

    /// The producer throws the facts: an output FILE that is the command's input, as given.
    @Test func anOutputThatIsAnInputIsThrownAsItsFacts() throws {
        let project = try TemporaryProject()
        try project.file("odrpack.yml", "version: 1\n")
        let input = FilePath(project.path("odrpack.yml"))
        let target = try OutputTarget(project.path("odrpack.yml"), streams: .process())
        #expect(
            throws: ODRPackError.output(
                .outputIsInput(output: project.path("odrpack.yml"), input: input, command: "report"))
        ) { try target.refuse(inputs: [input], command: "report") }
    }
}
