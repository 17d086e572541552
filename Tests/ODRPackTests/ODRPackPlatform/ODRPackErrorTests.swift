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

    @Test func everyOtherKindPrintsItsMessageAsIs() {
        let kinds: [ODRPackError] = [.fileOperation("m"), .fileChanged("m"), .folderLocked("m"), .commandFailed("m"),
                                     .libraryFailed("m"), .unusableInput("m"), .unbuildable("m"), .usage("m")]
        #expect(kinds.allSatisfy { $0.description == "m" })
    }
}
