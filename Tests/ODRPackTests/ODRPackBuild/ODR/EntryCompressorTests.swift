import Foundation
import Testing

@testable import ODRPackBuild
@testable import ODRPackBuildFormat
@testable import ODRPackFormats

/// `--compression auto`: the choice to deflate depends only on an entry's bytes.
@Suite struct EntryCompressorTests {
    let compressor = EntryCompressor(
        options: BuildOptions(
            outputDirectory: "/tmp/unused", format: .odr, environment: ProcessInfo.processInfo.environment))
    let zeros = [UInt8](repeating: 0, count: 200_000)

    func deflates(_ bytes: [UInt8], compressor: EntryCompressor? = nil) throws -> Bool {
        try (compressor ?? self.compressor).prepare("entry", .bytes(bytes), onBytes: nil)
            .deflated
    }

    func random(_ count: Int) -> [UInt8] { [UInt8](randomBytes(count, seed: UInt64(count))) }

    /// Up to three samples (48 KiB) an entry is judged by its whole deflate at level 4, above by a level-1 trial of
    /// three samples: both sides of the boundary deflate text and store noise, and at every `--level` the choice is
    /// the same (docs/build-output.md: it depends only on the bytes), while the bytes deflated are the level's.
    @Test func smallEntriesAreJudgedByTheirBytesAtEveryLevel() throws {
        let text = Array(String(repeating: "{\"name\": \"sprite\", \"frame\": 12}\n", count: 3_000).utf8)
        for level in [0, 1, 4, 9] {
            var options = BuildOptions(
                outputDirectory: "/tmp/unused", format: .odr, environment: ProcessInfo.processInfo.environment)
            options.level = level
            let compressor = EntryCompressor(options: options)
            for count in [1_000, 3 * EntryCompressor.sampleSize, 3 * EntryCompressor.sampleSize + 1] {
                // Level 0 deflates to stored blocks, larger than the bytes: such an entry is stored.
                #expect(
                    try deflates(Array(text.prefix(count)), compressor: compressor) == (level > 0),
                    "level \(level), \(count) bytes")
                #expect(try !deflates(random(count), compressor: compressor), "level \(level), \(count) bytes")
            }
            let small = Array(text.prefix(1_000))
            let prepared = try compressor.prepare("entry", .bytes(small), onBytes: nil)
            let atLevel = try WholeDeflater(level: level)
            #expect(
                prepared.payload == (level == 0 ? small : small.withUnsafeBytes { atLevel.compress($0) }),
                "level \(level)")
        }
        #expect(try !deflates([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 1_000)))
        #expect(EntryCompressor.isWorthwhile(95, of: 100) && !EntryCompressor.isWorthwhile(96, of: 100))
    }

    @Test func textThatCompressesIsDeflatedAndRandomBytesAreNot() throws {
        #expect(try deflates(zeros))
        #expect(try !deflates(random(200_000)))
        #expect(try !deflates([]))
    }

    /// A file in an already-compressed format is stored without a trial, whatever follows its signature: the same
    /// zeros behind a PNG, MP4 or zip signature are stored, and deflated without one.
    @Test(
        arguments: [
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],  // PNG
            [0xFF, 0xD8, 0xFF, 0xE0],  // JPEG
            [0, 0, 0, 0x20] + Array("ftypisom".utf8),  // MP4
            [0, 0, 0, 0x20] + Array("ftypM4A ".utf8),  // M4A
            Array("OggS".utf8), Array("fLaC".utf8), Array("ID3".utf8), [0xFF, 0xFB],
            Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBP".utf8), Array("GIF89a".utf8),
            [0x50, 0x4B, 0x03, 0x04], [0x1F, 0x8B], [0x28, 0xB5, 0x2F, 0xFD], Array("wOF2".utf8),
        ] as [[UInt8]])
    func compressedFormatsAreStored(signature: [UInt8]) throws {
        #expect(try !deflates(signature + zeros))
        #expect(try deflates([0x01] + signature + zeros))
    }

    @Test func riffThatIsNotWebPAndShortFilesAreJudgedByTheirBytes() throws {
        #expect(try deflates(Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WAVE".utf8) + zeros))
        #expect(try !deflates([0x89, 0x50]))
        #expect(CompressedFormat.matches(UnsafeRawBufferPointer(start: nil, count: 0)) == false)
    }

    /// An entry is never stored deflated when deflating did not make it smaller (docs/build-output.md): not with
    /// `--compression deflate`, and not with `auto` when the samples suggested deflate but the level's output is not
    /// smaller (level 0 writes stored blocks).
    @Test func anEntryDeflateDoesNotShrinkIsStored() throws {
        var options = BuildOptions(
            outputDirectory: "/tmp/unused", format: .odr, environment: ProcessInfo.processInfo.environment)
        options.compression = .deflate
        let deflate = EntryCompressor(options: options)
        #expect(try !deflates(random(200_000), compressor: deflate))
        #expect(try !deflates(random(1_000), compressor: deflate))
        #expect(try !deflates([], compressor: deflate))
        #expect(try !deflates([7], compressor: deflate))
        #expect(try deflates(zeros, compressor: deflate))
        let stored = try deflate.prepare("entry", .bytes([7, 8, 9]), onBytes: nil)
        #expect(stored.payload == [7, 8, 9] && stored.size == 3)

        options.compression = .auto
        options.level = 0
        let levelZero = EntryCompressor(options: options)
        // Above three samples: the level-1 trial of the samples says deflate; the level-0 output is larger.
        #expect(try !deflates(zeros, compressor: levelZero))
        options.level = 1
        #expect(try deflates(zeros, compressor: EntryCompressor(options: options)))
    }
}
