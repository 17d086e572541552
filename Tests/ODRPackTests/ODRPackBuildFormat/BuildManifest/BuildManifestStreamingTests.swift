import Foundation
import Testing

@testable import ODRPackBuildFormat
@testable import ODRPackCore
@testable import ODRPackFormats
@testable import ODRPackPlatform

/// docs/build-output.md#bounded: odrpack-manifest.json is written as a stream, a chunk at a time, and is the bytes of
/// the one generic serialization (`JSONValue`) whatever the manifest.
@Suite struct BuildManifestStreamingTests {
    /// `sample` with `packs` packs of `files` files each: odd paths, sources, digests missing here and there.
    static func manifest(packs: Int, files: Int, archives: Bool, seed: Int) -> BuildManifest {
        var manifest = BuildManifestTests.sample(archives: archives)
        let template = manifest.packs[0]
        manifest.packs = (0..<packs).map { index in
            var pack = template
            pack.id = "p\(index)-ü"
            pack.files = BuildManifest.Files(
                (0..<files).lazy.map { number in
                    let mixed = (number + seed + index) % 7
                    return BuildManifest.File(
                        path: "Levels/\(index)/\(number)" + (mixed == 0 ? " \"é\"\t🎮.json" : ".json"),
                        source: mixed == 3 ? "Other/\(number).json" : nil, size: Int64(number * 37 + seed),
                        sha256: archives && mixed != 5 ? String(repeating: "0123456789abcdef", count: 4) : nil)
                })
            return pack
        }
        return manifest
    }

    /// The streamed document is the generic serialization's bytes, through a sink that hands on chunks; each recorded
    /// part is exactly `serializedPack`'s bytes at its offset; parts written by `reusing` give the same document.
    @Test(arguments: [(0, 0), (1, 0), (3, 5), (2, 12_000)])
    func theStreamedDocumentIsTheGenericSerialization(packs: Int, files: Int) throws {
        for archives in [true, false] {
            let manifest = Self.manifest(packs: packs, files: files, archives: archives, seed: packs + files)
            let reference = Array(JSONValue.object(manifest.jsonMembers).serialized().utf8)
            var chunks: [Int] = []
            var collected: [UInt8] = []
            var sink = DocumentSink { chunk in
                chunks.append(chunk.count)
                collected.append(contentsOf: chunk)
            }
            let parts = try manifest.write(to: &sink)
            try sink.flush()
            #expect(collected == reference)
            #expect(manifest.serializedBytes() == reference)
            #expect(chunks.dropLast().allSatisfy { $0 >= DocumentSink.chunkSize && $0 < DocumentSink.chunkSize + 4096 })
            #expect(parts.count == packs)
            for (index, part) in parts.enumerated() {
                let range = Int(part.offset)..<Int(part.offset + part.length)
                #expect(Array(reference[range]) == manifest.serializedPack(index))
            }
            let reused = try DocumentSink.bytes { sink in
                _ = try manifest.write(to: &sink) { index, sink in
                    guard index % 2 == 0 else { return false }
                    try sink.append(manifest.serializedPack(index))
                    return true
                }
            }
            #expect(reused == reference)
        }
    }

    /// A sink that fails (a full disk) ends the document with its error.
    @Test func aFailingSinkEndsTheDocument() throws {
        struct Full: Error {}
        let manifest = Self.manifest(packs: 1, files: 20_000, archives: true, seed: 1)
        var calls = 0
        var sink = DocumentSink { _ in
            calls += 1
            throw Full()
        }
        #expect(throws: Full.self) { try manifest.write(to: &sink) }
        #expect(calls == 1)
    }
}
