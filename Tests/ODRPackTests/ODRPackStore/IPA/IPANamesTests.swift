import Foundation
import Testing

@testable import ODRPackFormats
@testable import ODRPackPlatform

/// docs/store.md#ipa and docs/architecture.md#paths: an app's names that are not UTF-8 go into the IPA as their bytes,
/// without the UTF-8 flag for those entries alone, and an IPA holding them is read back; `ipa` runs in a folder whose
/// name is not UTF-8 and writes FILE under exactly the name it was given.
@Suite struct IPANamesTests {
    let thinNames = ThinNamesTests()

    /// The IPA's entries as the project's zip reader gives them: each name's bytes and its general-purpose flags.
    static func entries(_ path: FilePath) throws -> [(name: [UInt8], flags: UInt16)] {
        let descriptor = try SystemCall.openForReading(path).get()
        defer { SystemCall.closeFile(descriptor) }
        let size = try #require(SystemCall.status(path)).stamp.size
        return try ZipCentralDirectory(descriptor: descriptor, fileSize: UInt64(size)).entries.map {
            ($0.nameBytes, $0.flags)
        }
    }

    /// What every IPA of the game must hold of the app's names that are not UTF-8.
    static func expectRawNames(_ ipa: FilePath) throws {
        let entries = try Self.entries(ipa)
        let byName = Dictionary(entries.map { ($0.name, $0.flags) }, uniquingKeysWith: { first, _ in first })
        for (name, byte) in [
            ("Payload/Game.app/caf%.txt", RawNames.e), ("Payload/Game.app/d%/", 0xFF),
            ("Payload/Game.app/d%/x", 0xFF), ("Payload/Game.app/l%", RawNames.e),
        ] {
            let bytes = RawNames.bytes(name, byte)
            #expect(byName[bytes] == 0, "\(FilePath.shownText(of: bytes)): \(String(describing: byName[bytes]))")
        }
        // Every other entry is UTF-8 and says so.
        #expect(entries.filter { $0.flags & ZipFormat.utf8Flag != 0 }.count == entries.count - 4)
        #expect(byName[Array("Payload/Game.app/Info.plist".utf8)] == ZipFormat.utf8Flag)
    }

    @Test(arguments: ["Game.ipa", "G%.ipa", "sub%/Game.ipa"])
    func anAppWithNamesThatAreNotUTF8IsPackagedAsItIs(_ output: String) throws {
        let (project, folder) = try thinNames.gameInNonUTF8Folder()
        defer { RawNames.remove(folder) }
        _ = project
        let run = try RawNames.run(["ipa", "Game.app", "out", "-o", output], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let shown = FilePath.shownText(of: RawNames.bytes(output))
        #expect(run.stdout.hasPrefix("Wrote \(shown) ("), "\(run.stdout)")
        let ipa = RawNames.path(URL(fileURLWithPath: "/"), folder.bytes + [0x2F] + RawNames.bytes(output))
        try Self.expectRawNames(ipa)
        // FILE has exactly the name given, and no repaired twin (`G\u{FFFD}.ipa`) beside it.
        let names = try RawNames.names(in: ipa.parent)
        #expect(names.contains(Array(ipa.lastComponent!.bytes)))
        #expect(
            !names.contains(Array(String(decoding: ipa.lastComponent!.bytes, as: UTF8.self).utf8))
                || !ipa.lastComponent!.bytes.contains(RawNames.e))
        // The app is unchanged, and no work folder is left.
        try thinNames.expectNamesKept(folder.joined("Game.app"))
        #expect(try RawNames.names(in: ipa.parent).allSatisfy { !$0.starts(with: Array(".odrpack-tmp".utf8)) })
    }

    /// An IPA that holds such names is read back and packaged again with the same names.
    @Test func anIPAHoldingNamesThatAreNotUTF8IsReadBack() throws {
        let (project, folder) = try thinNames.gameInNonUTF8Folder()
        defer { RawNames.remove(folder) }
        _ = project
        #expect(try RawNames.run(["ipa", "Game.app", "out", "-o", "first.ipa"], in: folder).status == 0)
        let again = try RawNames.run(["ipa", "first.ipa", "out", "-o", "again.ipa"], in: folder)
        #expect(again.status == 0, "\(again.stderr)")
        try Self.expectRawNames(folder.joined("again.ipa"))
        #expect(
            try Self.entries(folder.joined("again.ipa")).map(\.name)
                == Self.entries(folder.joined("first.ipa")).map(\.name))
    }
}
