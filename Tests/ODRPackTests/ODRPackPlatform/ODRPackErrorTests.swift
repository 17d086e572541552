import Testing

@testable import ODRPackPlatform

/// The one fatal error type: a failed system call carries the system's own errno and words, never an invented one.
@Suite struct ODRPackErrorTests {
    @Test func aSystemCallFailureSaysWhatAndTheSystemsReason() {
        // ENOENT is 2 on Linux and on Darwin.
        let error = ODRPackError.system("cannot open 'a.png'", 2)
        #expect(error == .systemCall("cannot open 'a.png'", SystemError(2)))
        #expect(error.description == "cannot open 'a.png': " + SystemError(2).reason)
        #expect(SystemError(2).isMissing && !SystemError(2).reason.isEmpty)
    }

    /// Each kind prints its own message, whole and unchanged (the front end adds "odrpack: error: " once).
    @Test func everyOtherKindPrintsItsMessageAsIs() {
        let messages = [
            "cannot copy 'a': no space", "'b' changed: run again", "'c' is locked", "the signer exited 3",
            "zlib failed", "'d' is not a build", "'e' collides", "--flag does not apply",
        ]
        let kinds: [ODRPackError] = [
            .fileOperation(messages[0]), .fileChanged(messages[1]), .folderLocked(messages[2]),
            .commandFailed(messages[3]), .libraryFailed(messages[4]), .unusableInput(messages[5]),
            .unbuildable(messages[6]), .usage(messages[7]),
        ]
        #expect(kinds.map(\.description) == messages)
        #expect("\(ODRPackError.unusableInput(messages[5]))" == messages[5])
    }
}
