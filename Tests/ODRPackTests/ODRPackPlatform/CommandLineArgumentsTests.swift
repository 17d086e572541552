import Foundation
import Testing

@testable import ODRPackPlatform

/// docs/architecture.md#paths: the command line's bytes reach a command's paths as themselves. Each argument's text
/// maps back to its bytes, valid UTF-8 stays as it is, and a message shows a byte that is not UTF-8 as `\xNN`.
@Suite struct CommandLineArgumentsTests {
    /// Arguments that trip a decoder: a lone Latin-1 byte, a cut sequence, an overlong "/", an encoded surrogate, bytes
    /// no UTF-8 holds, a valid scalar of the carrying block itself, and text with nothing to carry.
    static let variants: [[UInt8]] = [
        Array("out".utf8), Array("caf\u{E9}.txt".utf8), [0x6F, 0x75, 0x74, 0xE9], [0xE9], [0xC3], [0xE2, 0x82],
        [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF5, 0xFF, 0xFE], [0x2D, 0x2D, 0x6F, 0x3D, 0x80],
        Array("\u{10FEE9}".utf8), Array("a\u{10FE80}b\u{10FEFF}".utf8), Array("🙂 n\u{301}".utf8), [],
        [0x4E, 0xE9, 0x2F, 0x63, 0x61, 0x66, 0xE9],
    ]

    @Test(arguments: variants) func theTextMapsBackToTheSameBytes(_ bytes: [UInt8]) throws {
        let text = CommandLineArguments.text(of: bytes)
        #expect(CommandLineArguments.bytes(of: text) == bytes)
        if !bytes.isEmpty { #expect(try #require(FilePath(argument: text)).bytes == bytes) }
    }

    @Test func validTextIsItselfAndOtherBytesAreCarried() {
        #expect(CommandLineArguments.text(of: Array("caf\u{E9} 🙂".utf8)) == "caf\u{E9} 🙂")
        let text = CommandLineArguments.text(of: [0x6F, 0xE9])
        #expect(text.unicodeScalars.map(\.value) == [0x6F, 0x10FEE9])
        // A valid scalar of the block is carried byte by byte, so that it cannot be read back as one carried byte.
        #expect(CommandLineArguments.text(of: Array("\u{10FEE9}".utf8)).unicodeScalars.count == 4)
        // Two different byte strings never give the same text.
        let texts = Set(Self.variants.map { CommandLineArguments.text(of: $0) })
        #expect(texts.count == Set(Self.variants).count)
    }

    @Test func aMessageShowsACarriedByteEscaped() {
        #expect(CommandLineArguments.shown(CommandLineArguments.text(of: [0x6F, 0x75, 0x74, 0xE9])) == "out\\xe9")
        #expect(CommandLineArguments.shown(CommandLineArguments.text(of: [0x05, 0xFF])) == "\u{5}\\xff")
        #expect(CommandLineArguments.shown("caf\u{E9}") == "caf\u{E9}")
    }

    /// `FilePath.text`, which every message uses, shows the bytes as the argument's message does; a path that is UTF-8
    /// is its text, U+FFFD included.
    @Test func aPathIsShownWithItsBytesEscaped() throws {
        #expect(try #require(FilePath(bytes: [0x4E, 0xE9, 0x2F, 0x78])).text == "N\\xe9/x")
        #expect(try #require(FilePath(bytes: [0xC3, 0xA9, 0xC3])).text == "\u{E9}\\xc3")
        #expect(FilePath("a\u{FFFD}b").text == "a\u{FFFD}b")
        #expect(FilePath.shownText(of: [0x1B, 0x41, 0xE9], escapingControls: true) == "\\x1bA\\xe9")
        #expect(FilePath.shownText(of: [0x1B, 0x41]) == "\u{1B}A")
    }
}
