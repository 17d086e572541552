import Foundation
import Testing

@testable import ODRPackPlatform

/// A folder another odrpack process holds is said with the folder (a path, or the build folder as the user wrote it)
/// in one place: each prints, byte for byte, the sentence its producer wrote before it held facts, and keeps the
/// `--json` code `locked` (docs/commands.md#json).
@Suite struct FolderLockConflictTests {
    static let expected: [(FolderLockConflict, String)] = [
        (.held("out/.odrpack.lock"), "another process holds 'out/.odrpack.lock'"),
        (
            .buildFolderInUse("out"),
            "another odrpack build or thin is using 'out': wait for it to finish, or run without --no-wait to wait"
        ),
        (
            .uploadRunning("/p/out"),
            "another odrpack upload is sending the packs of '/p/out': let it finish, then run upload again if it "
                + "failed (it goes on from what was sent)"
        ),
        (
            .workingFolderTaken("/tmp/w"),
            "another odrpack process works in '/tmp/w': wait for it to finish, then run again"
        ),
        (.workingFolderRemoved("/tmp/w"), "another odrpack process removed '/tmp/w' as this one made it: run again"),
    ]

    @Test func eachConflictPrintsItsSentence() {
        for (conflict, message) in Self.expected {
            #expect(ODRPackError.folderLocked(conflict).description == message)
            #expect(ODRPackError.folderLocked(conflict).jsonCode == "locked")
        }
    }

    /// A working folder that is there already belongs to another process: refused with its path.
    @Test func aWorkingFolderThereAlreadyIsRefusedWithItsPath() throws {
        let path = FilePath(NSTemporaryDirectory()).joined("odrpack-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path.string, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: path.string) }
        #expect(throws: ODRPackError.folderLocked(.workingFolderTaken(path))) { _ = try HeldFolder(making: path) }
    }
}
