import Foundation

/// A small pull parser over UTF-8 JSON bytes: the caller walks the document it expects and skips the rest.
/// Much faster than building a generic tree, for the large manifests `diff` and `verify` read.
package struct JSONReader {
    package enum Failure: Error {
        /// Not JSON at all (truncated, corrupt), at a byte offset.
        case syntax(Int)
        /// JSON, but not the expected shape: what was expected, and where.
        case shape(String)
    }

    let bytes: UnsafeBufferPointer<UInt8>
    package var position = 0
    /// Objects and arrays open around the current position; bounded so that no input can exhaust the stack.
    private var depth = 0
    static let maximumDepth = 256

    package init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    package mutating func peek() -> UInt8? {
        skipSpace()
        return current
    }

    mutating func expect(_ byte: UInt8) throws {
        guard peek() == byte else { throw Failure.syntax(position) }
        position += 1
    }

    /// Calls `body` with each key of an object; `body` must read (or skip) the value.
    package mutating func object(_ what: String, _ body: (inout JSONReader, String) throws -> Void) throws {
        guard peek() == UInt8(ascii: "{") else { throw try shapeOrSyntax("\(what) must be an object") }
        position += 1
        try enter()
        defer { depth -= 1 }
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            let key = try string(what)
            try expect(UInt8(ascii: ":"))
            try body(&self, key)
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return
            default: throw Failure.syntax(position)
            }
        }
    }

    /// Calls `body` for each element of an array.
    package mutating func array(_ what: String, _ body: (inout JSONReader) throws -> Void) throws {
        guard peek() == UInt8(ascii: "[") else { throw try shapeOrSyntax("\(what) must be a list") }
        position += 1
        try enter()
        defer { depth -= 1 }
        if peek() == UInt8(ascii: "]") {
            position += 1
            return
        }
        while true {
            try body(&self)
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return
            default: throw Failure.syntax(position)
            }
        }
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw Failure.shape("it nests objects and lists over \(Self.maximumDepth) deep")
        }
    }

    package mutating func strings(_ what: String) throws -> [String] {
        var values: [String] = []
        try array(what) { values.append(try $0.string(what)) }
        return values
    }

    package mutating func isNull() -> Bool {
        guard peek() == UInt8(ascii: "n"), position + 4 <= bytes.count, bytes[position + 1] == UInt8(ascii: "u"),
            bytes[position + 2] == UInt8(ascii: "l"), bytes[position + 3] == UInt8(ascii: "l")
        else { return false }
        position += 4
        return true
    }

    package mutating func string(_ what: String) throws -> String {
        guard peek() == UInt8(ascii: "\"") else { throw try shapeOrSyntax("\(what) must be a string") }
        position += 1
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = try Self.validated(UnsafeBufferPointer(rebasing: bytes[start..<position]), at: start)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            if byte < 0x20 { throw Failure.syntax(position) }
            position += 1
        }
        throw Failure.syntax(position)
    }

    private mutating func escapedString(from start: Int) throws -> String {
        var scalars: [UInt8] = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\"") {
                return try scalars.withUnsafeBufferPointer { try Self.validated($0, at: start) }
            }
            if byte < 0x20 { throw Failure.syntax(position - 1) }
            guard byte == UInt8(ascii: "\\") else {
                scalars.append(byte)
                continue
            }
            guard let escape = current else { break }
            position += 1
            switch escape {
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "u"):
                var value = try hex4()
                // A surrogate must come as a high one followed by an escaped low one; anything else is not text.
                if (0xD800..<0xDC00).contains(value) {
                    guard current == UInt8(ascii: "\\"), position + 1 < bytes.count,
                        bytes[position + 1] == UInt8(ascii: "u")
                    else {
                        throw Failure.syntax(position)
                    }
                    position += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw Failure.syntax(position) }
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(value) else { throw Failure.syntax(position) }
                scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
            default: throw Failure.syntax(position - 1)
            }
        }
        throw Failure.syntax(position)
    }

    /// The bytes as a String, or a syntax failure when they are not UTF-8.
    private static func validated(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws -> String {
        // Decoding replaces what is not UTF-8, so the text has the same bytes exactly when they were valid.
        // (Faster here than the generic String(validating:as:).)
        var text = String(decoding: bytes, as: UTF8.self)
        let valid = text.withUTF8 { decoded in
            decoded.count == bytes.count
                && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        guard valid else { throw Failure.syntax(offset) }
        return text
    }

    private mutating func hex4() throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw Failure.syntax(position) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Failure.syntax(position)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    package mutating func integer(_ what: String) throws -> Int64 {
        let text = try numberText(what)
        guard let value = Int64(text) else { throw Failure.shape("\(what) must be a whole number") }
        return value
    }

    package mutating func double(_ what: String) throws -> Double {
        guard let value = Double(try numberText(what)), value.isFinite else {
            throw Failure.shape("\(what) must be a finite number")
        }
        return value
    }

    /// A whole number of bytes or items: not negative, and within 64 bits.
    package mutating func count(_ what: String) throws -> Int64 {
        let value = try integer(what)
        guard value >= 0 else { throw Failure.shape("\(what) must not be negative") }
        return value
    }

    private mutating func numberText(_ what: String) throws -> String {
        skipSpace()
        let start = position
        while let byte = current,
            byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        {
            position += 1
        }
        guard position > start else { throw try shapeOrSyntax("\(what) must be a number") }
        guard Self.isJSONNumber(UnsafeBufferPointer(rebasing: bytes[start..<position])) else {
            throw Failure.syntax(start)
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// JSON's number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    static func isJSONNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[index]) { index += 1 }
            return index - start
        }
        if index < text.count && text[index] == UInt8(ascii: "-") { index += 1 }
        guard index < text.count else { return false }
        if text[index] == UInt8(ascii: "0") { index += 1 } else if digits() == 0 { return false }
        if index < text.count && text[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < text.count && (text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E")) {
            index += 1
            if index < text.count && (text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard digits() > 0 else { return false }
        }
        return index == text.count
    }

    /// Skips any value.
    package mutating func skip() throws {
        switch peek() {
        case UInt8(ascii: "{"): try object("value") { reader, _ in try reader.skip() }
        case UInt8(ascii: "["): try array("value") { try $0.skip() }
        case UInt8(ascii: "\""): _ = try string("value")
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let start = position
            while let byte = current, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) { position += 1 }
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            guard ["true", "false", "null"].contains(word) else { throw Failure.syntax(start) }
        case nil: throw Failure.syntax(position)
        default:
            // Even a value nobody reads must be a number a reader could hold: whole numbers in 64 bits.
            let text = try numberText("value")
            let whole = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
            guard whole ? Int64(text) != nil : Double(text)?.isFinite == true else {
                throw Failure.shape("the number \(text) is out of range")
            }
        }
    }

    /// A wrong type where valid JSON continues is a shape problem; the end of the bytes is a syntax one.
    private mutating func shapeOrSyntax(_ message: String) throws -> Failure {
        guard let byte = peek(),
            [
                UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "t"),
                UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "-"),
            ].contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        else { return .syntax(position) }
        return .shape(message)
    }
}
