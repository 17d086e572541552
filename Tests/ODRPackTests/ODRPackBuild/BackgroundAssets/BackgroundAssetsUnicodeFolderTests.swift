import Foundation
import Testing

/// Background Assets staging by bytes (docs/background-assets.md): two sibling folders whose names are one name to
/// Swift's `==` (`café` in NFC and in NFD) are two folders on Linux, and each gets its own staged folder.
@Suite struct BackgroundAssetsUnicodeFolderTests {
    @Test func siblingFoldersInNFCAndNFDAreStagedApart() throws {
        let fixture = try BackgroundAssetsFixture()
        try fixture.project.manifest(
            "version: 1\nbundle-id: com.example.bamboo\nresources-root: R\nresources:\n  - {path: Cafe, tags: [cafe]}\n"
        )
        try fixture.project.file("R/Cafe/caf\u{E9}/nfc.json", "{\"form\": \"NFC\"}")
        try fixture.project.file("R/Cafe/cafe\u{301}/nfd.json", "{\"form\": \"NFD\"}")
        let output = try fixture.build()
        #expect(output.status == 0, "\(output.stderr)")
        let packs = try fixture.json("out/odrpack-manifest.json")["packs"] as? [[String: Any]] ?? []
        let files = (packs.first?["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(
            files.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) } == [
                Array("Cafe/cafe\u{301}/nfd.json".utf8), Array("Cafe/caf\u{E9}/nfc.json".utf8),
            ])
    }
}
