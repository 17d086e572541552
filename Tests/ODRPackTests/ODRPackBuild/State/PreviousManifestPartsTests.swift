import Foundation
import Testing

@testable import ODRPackBuild
@testable import ODRPackBuildFormat
@testable import ODRPackCore
@testable import ODRPackPlatform

/// A rebuild copies the manifest parts of unchanged packs from the last build's odrpack-manifest.json: only from
/// that very file, only parts with the same key, and the document stays byte for byte a clean build's.
@Suite struct PreviousManifestPartsTests {
    let reuse = EntryReuseTests()

    @Test func theRecordedPartsAreTheManifestsBytesAndOnlyThatFileLendsThem() throws {
        let project = try reuse.project()
        let first = try reuse.build(project, after: nil)
        let path = project.path("out/" + BuildManifest.fileName)
        let document = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let manifest = try document.withUnsafeBufferPointer { try BuildManifest(json: $0) }
        #expect(manifest.packs.count == 2)
        let parts = try #require(PreviousManifestParts(path: FilePath(path), previous: first.state))
        for (index, pack) in manifest.packs.enumerated() {
            let recorded = try #require(first.state.packs[pack.id]?.manifestPart)
            let key = try #require(manifest.partKey(index))
            #expect(recorded.key == key)
            let bytes = manifest.serializedPack(index)
            #expect(Array(document[Int(recorded.offset)..<Int(recorded.offset + recorded.length)]) == bytes)
            #expect(parts.part(id: pack.id, key: key) == bytes)
            #expect(parts.part(id: pack.id, key: key + "0") == nil)
        }
        // The same bytes with another time are not the file the build recorded.
        TestSystem.setTimes(path, seconds: 1_000_000_000)
        #expect(PreviousManifestParts(path: FilePath(path), previous: first.state) == nil)
    }

    /// Offsets are found only where the layout puts every part; anything else finds none.
    @Test func partOffsetsAreExactOrNone() throws {
        let manifest = BuildManifestTests.sample(archives: true)
        let parts = manifest.packs.indices.map(manifest.serializedPack)
        let document = manifest.serialized(packs: parts)
        let offsets = try #require(BuildManifest.partOffsets(parts, in: document))
        for (offset, part) in zip(offsets, parts) { #expect(Array(document[offset..<offset + part.count]) == part) }
        var changed = document
        changed[offsets[0]] ^= 1
        #expect(BuildManifest.partOffsets(parts, in: changed) == nil)
        #expect(BuildManifest.partOffsets(Array(parts.dropLast()), in: document) == nil)
        #expect(BuildManifest.partOffsets([], in: document) == nil)
    }

    /// A previous manifest edited in place (its time put back) lends nothing; the rebuild is a clean build's.
    @Test func anEditedManifestLendsNothing() throws {
        let project = try reuse.project()
        let first = try reuse.build(project, after: nil)
        let path = project.path("out/" + BuildManifest.fileName)
        try TestSystem.keepingTimes(of: path) {
            let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
                of: "menu.json", with: "MENU.json")
            try text.write(toFile: path, atomically: false, encoding: .utf8)
        }
        try project.file("R/Level/Text/part2.json", "{\"part\": 2, \"edited\": true}\n")
        let second = try reuse.build(project, after: first.state)
        #expect(second.written.count == 1 && second.reused.count == 1)
        try reuse.expectCleanBytes(project)
    }
}
