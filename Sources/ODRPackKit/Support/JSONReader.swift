/// A small pull parser over UTF-8 JSON bytes: the caller walks the document it expects and skips the rest.
/// Much faster than building a generic tree, for the large manifests `diff` and `verify` read.
struct JSONReader {
    enum Failure: Error {
        /// Not JSON at all (truncated, corrupt), at a byte offset.
        case syntax(Int)
        /// JSON, but not the expected shape: what was expected, and where.
        case shape(String)
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    mutating func peek() -> UInt8? {
        skipSpace()
        return current
    }

    mutating func expect(_ byte: UInt8) throws {
        guard peek() == byte else { throw Failure.syntax(position) }
        position += 1
    }

    /// Calls `body` with each key of an object; `body` must read (or skip) the value.
    mutating func object(_ what: String, _ body: (inout JSONReader, String) throws -> Void) throws {
        guard peek() == UInt8(ascii: "{") else { throw try shapeOrSyntax("\(what) must be an object") }
        position += 1
        if peek() == UInt8(ascii: "}") { position += 1; return }
        while true {
            let key = try string(what)
            try expect(UInt8(ascii: ":"))
            try body(&self, key)
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return
            default: throw Failure.syntax(position)
            }
        }
    }

    /// Calls `body` for each element of an array.
    mutating func array(_ what: String, _ body: (inout JSONReader) throws -> Void) throws {
        guard peek() == UInt8(ascii: "[") else { throw try shapeOrSyntax("\(what) must be a list") }
        position += 1
        if peek() == UInt8(ascii: "]") { position += 1; return }
        while true {
            try body(&self)
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return
            default: throw Failure.syntax(position)
            }
        }
    }

    mutating func strings(_ what: String) throws -> [String] {
        var values: [String] = []
        try array(what) { values.append(try $0.string(what)) }
        return values
    }

    mutating func isNull() -> Bool {
        guard peek() == UInt8(ascii: "n"), position + 4 <= bytes.count, bytes[position + 1] == UInt8(ascii: "u"),
              bytes[position + 2] == UInt8(ascii: "l"), bytes[position + 3] == UInt8(ascii: "l") else { return false }
        position += 4
        return true
    }

    mutating func string(_ what: String) throws -> String {
        guard peek() == UInt8(ascii: "\"") else { throw try shapeOrSyntax("\(what) must be a string") }
        position += 1
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            position += 1
        }
        throw Failure.syntax(position)
    }

    private mutating func escapedString(from start: Int) throws -> String {
        var scalars: [UInt8] = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: scalars, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else { scalars.append(byte); continue }
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
                if (0xD800..<0xDC00).contains(value), current == UInt8(ascii: "\\"), position + 1 < bytes.count,
                   bytes[position + 1] == UInt8(ascii: "u") {
                    position += 2
                    let low = try hex4()
                    value = 0x10000 + ((value - 0xD800) << 10) + (low &- 0xDC00)
                }
                scalars.append(contentsOf: Array(String(Unicode.Scalar(value).map(Character.init) ?? "\u{FFFD}").utf8))
            default: scalars.append(escape)
            }
        }
        throw Failure.syntax(position)
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

    mutating func integer(_ what: String) throws -> Int64 {
        let text = try numberText(what)
        guard let value = Int64(text) else { throw Failure.shape("\(what) must be a whole number") }
        return value
    }

    mutating func double(_ what: String) throws -> Double {
        guard let value = Double(try numberText(what)) else { throw Failure.shape("\(what) must be a number") }
        return value
    }

    private mutating func numberText(_ what: String) throws -> String {
        skipSpace()
        let start = position
        while let byte = current, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            position += 1
        }
        guard position > start else { throw try shapeOrSyntax("\(what) must be a number") }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// Skips any value.
    mutating func skip() throws {
        switch peek() {
        case UInt8(ascii: "{"): try object("value") { reader, _ in try reader.skip() }
        case UInt8(ascii: "["): try array("value") { try $0.skip() }
        case UInt8(ascii: "\""): _ = try string("value")
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            while let byte = current, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) { position += 1 }
        case nil: throw Failure.syntax(position)
        default: _ = try numberText("value")
        }
    }

    /// A wrong type where valid JSON continues is a shape problem; the end of the bytes is a syntax one.
    private mutating func shapeOrSyntax(_ message: String) throws -> Failure {
        guard let byte = peek(), [UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "t"),
                                  UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "-")].contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return .syntax(position) }
        return .shape(message)
    }
}
