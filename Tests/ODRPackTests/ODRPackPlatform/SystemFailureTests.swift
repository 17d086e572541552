import Foundation
import Testing

@testable import ODRPackPlatform

/// A failed call that names no `FilePath` prints the sentence its producer wrote before it held facts, byte for byte,
/// with the system's reason, and keeps the `--json` code `io`.
@Suite struct SystemFailureTests {
    @Test func eachFailurePrintsTheSentenceItReplaced() {
        let reason = SystemError(EINVAL).reason
        let expected: [(SystemFailure, String)] = [
            (.currentFolder, "cannot find the current folder"),
            (.named(.write, "out//a b.zip/"), "cannot write 'out//a b.zip/'"),
            (.named(.readBack, "out.zip"), "cannot read back 'out.zip'"),
            (.named(.stat, "Levels/a.png"), "cannot stat 'Levels/a.png'"),
            (.named(.open, "Levels/a.png"), "cannot open 'Levels/a.png'"),
            (.named(.read, "Levels/a.png"), "cannot read 'Levels/a.png'"),
            (
                .descriptorNotOpen("/dev/fd/7", descriptor: 7),
                "cannot write '/dev/fd/7': descriptor 7 is not open (redirect it in the shell, or name a file)"
            ),
            (.outputIsFolder("out"), "cannot write 'out': it is a folder: name a file"),
            (.writeStream(1), "cannot write to standard output"), (.writeStream(2), "cannot write to standard error"),
            (.writeStream(9), "cannot write to file descriptor 9"),
        ]
        for (failure, words) in expected {
            let error = ODRPackError.system(failure, EINVAL)
            #expect(error == .call(failure, SystemError(EINVAL)))
            #expect(error.description == words + ": " + reason)
            #expect(error.jsonCode == "io" && error.systemError == SystemError(EINVAL) && error.path == nil)
        }
    }

    /// A name that holds a NUL is refused before any call, and the message names it as given.
    @Test func aSpillBesideANameWithANulIsRefusedNamingIt() {
        #expect(throws: ODRPackError.call(.named(.write, "a\0b.zip"), SystemError(EINVAL))) {
            _ = try SpillFile(beside: "a\0b.zip")
        }
    }

    /// A stat that fails names the entry as its caller gives it (a resource's path in its pack).
    @Test func aStatusThatCannotBeHadNamesTheEntryAsGiven() {
        #expect(throws: ODRPackError.call(.named(.stat, "gone/x"), SystemError(ENOENT))) {
            _ = try SystemCall.requireStatus("/nonexistent-odrpack/gone/x", .named(.stat, "gone/x"))
        }
    }
}
