import Foundation
import Testing
@testable import ODRPackBuild
@testable import ODRPackFormats

/// `--compression auto`: the choice to deflate depends only on an entry's bytes.
@Suite struct EntryCompressorTests {
    let compressor = EntryCompressor(options: BuildOptions(outputDirectory: "/tmp/unused"))
    let zeros = [UInt8](repeating: 0, count: 200_000)

    func deflates(_ bytes: [UInt8]) throws -> Bool {
        try bytes.withUnsafeBytes { try compressor.shouldDeflate(inMemory: $0) }
    }

    @Test func textThatCompressesIsDeflatedAndRandomBytesAreNot() throws {
        #expect(try deflates(zeros))
        var generator = SystemRandomNumberGenerator()
        #expect(try !deflates((0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        #expect(try !deflates([]))
    }

    /// A file in an already-compressed format is stored without a trial, whatever follows its signature: the same
    /// zeros behind a PNG, MP4 or zip signature are stored, and deflated without one.
    @Test(arguments: [
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
}
