import Foundation
import Testing

@testable import ODRPackFormats

/// The reader over a stream reads what it reads from memory, value for value and failure for failure (the same
/// offsets), whatever the chunk size: down to one byte, so that every token crosses a chunk boundary.
@Suite struct JSONReaderTests {
    /// Every value of a document as text (strings, numbers, literals, keys in order), or the failure it ends with.
    static func walk(_ reader: inout JSONReader) -> String {
        var out = ""
        func value(_ reader: inout JSONReader) throws {
            switch reader.peek() {
            case UInt8(ascii: "{"):
                out += "{"
                try reader.object("an object") { reader, key in
                    out += "k:\(key)="
                    try value(&reader)
                    out += ","
                }
                out += "}"
            case UInt8(ascii: "["):
                out += "["
                try reader.array("a list") {
                    try value(&$0)
                    out += ","
                }
                out += "]"
            case UInt8(ascii: "\""): out += "s:\(try reader.string("a string"))"
            case UInt8(ascii: "n") where reader.isNull(): out += "null"
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                let start = reader.position
                try reader.skip()
                out += "lit@\(start)"
            default: out += "d:\(try reader.double("a number"))"
            }
        }
        do {
            try value(&reader)
            if reader.peek() != nil { throw JSONReader.Failure.syntax(reader.position) }
        } catch {
            out += " !\(error)"
        }
        return out + " @\(reader.position)"
    }

    static func fromMemory(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            return walk(&reader)
        }
    }

    static func streamed(_ bytes: [UInt8], chunkSize: Int) -> String {
        var offset = 0
        var reader = JSONReader(chunkSize: chunkSize) { buffer in
            // Fewer bytes than asked for, now and then, as a pipe gives them.
            let count = min(buffer.count, bytes.count - offset, offset % 3 == 1 ? 1 : Int.max)
            buffer.copyMemory(
                from: UnsafeRawBufferPointer(rebasing: bytes.withUnsafeBytes { $0 }[offset..<offset + count]))
            offset += count
            return count
        }
        return walk(&reader)
    }

    static let documents: [String] = [
        #"{"a": [1, -2.5e3, 0, true, false, null], "b": {"c": "d\n\u00e9\ud83c\udfae\/\\\"x"}, "": []}"#,
        #"  [ "plain", "üñí", "\u0041\u00DF", 12345678901234567890, 1e999, 0.1 ]  "#,
        #"{"long": ""# + String(repeating: "abcdefgh", count: 100) + #"", "esc": ""#
            + String(repeating: #"\t\u0001x"#, count: 40) + #""}"#,
        #"{"a": nul}"#, #"{"a": "x"#, #"{"a": "\uD800"}"#, #"{"a": "\uD800\u0041"}"#, #"{"a": "\x"}"#,
        #"{"a": 012}"#, #"{"a": -}"#, #"{"a": 1.}"#, #"{"a": tru}"#, #"{"a": truth}"#, #"[1 2]"#, #"{"a" 1}"#,
        "{\"a\": \"tab\u{9}here\"}", #"{"a": 1,}"#, "[", "", "   ", #""\u12"#, #""\u12G4""#, #"{"a": [1] } x"#,
        String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
    ]

    @Test func aStreamReadsWhatMemoryReadsAtEveryChunkSize() {
        var inputs = Self.documents.map { Array($0.utf8) }
        inputs.append(Array(#"{"a": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8))
        inputs.append(Array(#"["ok", ""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""]"#.utf8))
        for bytes in inputs {
            let expected = Self.fromMemory(bytes)
            for chunkSize in [1, 2, 3, 5, 16, 1 << 20] {
                #expect(
                    Self.streamed(bytes, chunkSize: chunkSize) == expected,
                    "\(String(decoding: bytes, as: UTF8.self)) in chunks of \(chunkSize)")
            }
        }
    }

    /// Cut anywhere, a document is a failure at the same offset whether read from memory or streamed, never a crash.
    @Test func aTruncatedDocumentFailsAlikeAtEveryByte() {
        let bytes = Array(Self.documents[0].utf8) + Array(Self.documents[2].utf8.prefix(200))
        for end in 0...bytes.count {
            let cut = Array(bytes[..<end])
            let expected = Self.fromMemory(cut)
            #expect(Self.streamed(cut, chunkSize: 1) == expected, "cut at \(end)")
            #expect(Self.streamed(cut, chunkSize: 4) == expected, "cut at \(end)")
        }
    }

    /// A read that fails ends the document: the parse fails, and the reader keeps the error for the caller to report.
    @Test func aFailedReadIsKept() {
        struct Broken: Error {}
        var calls = 0
        var reader = JSONReader(chunkSize: 4) { buffer in
            calls += 1
            guard calls == 1 else { throw Broken() }
            buffer.copyBytes(from: Array(#"{"ab"#.utf8))
            return 4
        }
        #expect(throws: JSONReader.Failure.self) { try reader.object("x") { reader, _ in try reader.skip() } }
        #expect(reader.readFailure is Broken)
    }
}
