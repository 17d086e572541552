import Foundation

/// A small pull parser over UTF-8 JSON bytes: the caller walks the document it expects and skips the rest.
/// Much faster than building a generic tree, for the large manifests `diff` and `verify` read.
///
/// The bytes come from memory, or from a stream read in chunks (`init(chunkSize:read:)`): a window over the document
/// that holds the bytes not yet consumed (and the start of a string or number being read), refilled as the reader
/// advances, so a manifest of a million files is read in a few MiB (docs/build-output.md#bounded). Positions in
/// failures are offsets in the whole document either way.
package struct JSONReader {
    package enum Failure: Error {
        /// Not JSON at all (truncated, corrupt), at a byte offset.
        case syntax(Int)
        /// JSON, but not the expected shape: what was expected, and where.
        case shape(String)
    }

    /// Where the bytes of a streamed document come from, and the window that holds them.
    final class Stream {
        /// Fills the buffer with the next bytes of the document; 0 at its end. A thrown error ends the document
        /// (the parse then fails) and is kept in `failure` for the caller to report instead.
        let read: (UnsafeMutableRawBufferPointer) throws -> Int
        var storage: UnsafeMutableBufferPointer<UInt8>
        var ended = false
        var failure: (any Error)?

        init(chunkSize: Int, read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
            self.read = read
            storage = .allocate(capacity: max(chunkSize, 1))
        }

        deinit { storage.deallocate() }
    }

    private let stream: Stream?
    /// The bytes at offsets `base ..< end` of the document.
    private var window: UnsafePointer<UInt8>?
    private var base = 0
    private var end: Int
    package var position = 0
    /// Objects and arrays open around the current position; bounded so that no input can exhaust the stack.
    private var depth = 0
    static let maximumDepth = 256

    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        stream = nil
        window = bytes.baseAddress
        end = bytes.count
    }

    /// A document read through `read` in chunks of `chunkSize` bytes (a string or number longer than that grows the
    /// window to hold it).
    package init(chunkSize: Int = 1 << 20, read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
        let stream = Stream(chunkSize: chunkSize, read: read)
        self.stream = stream
        window = UnsafePointer(stream.storage.baseAddress)
        end = 0
    }

    /// The error `read` threw, when it ended the document early: the cause of any failure that followed.
    package var readFailure: (any Error)? { stream?.failure }

    /// The byte at `offset` (at or after `position`), reading more of a stream while keeping the bytes from `keep` on;
    /// nil past the end.
    @inline(__always)
    private mutating func byteAt(_ offset: Int, keeping keep: Int) -> UInt8? {
        if offset < end { return window.unsafelyUnwrapped[offset - base] }
        return slowByte(at: offset, keeping: keep)
    }

    private mutating func slowByte(at offset: Int, keeping keep: Int) -> UInt8? {
        while offset >= end {
            guard refill(keeping: keep) else { return nil }
        }
        return window.unsafelyUnwrapped[offset - base]
    }

    /// Reads more of the stream into the window, which then starts at `keep`; false at the end of the document.
    private mutating func refill(keeping keep: Int) -> Bool {
        guard let stream, !stream.ended else { return false }
        let kept = end - keep
        if kept >= stream.storage.count {
            let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: stream.storage.count * 2)
            larger.baseAddress!.update(from: stream.storage.baseAddress! + (keep - base), count: kept)
            stream.storage.deallocate()
            stream.storage = larger
        } else if kept > 0 {
            let start = stream.storage.baseAddress!
            start.update(from: start + (keep - base), count: kept)
        }
        base = keep
        window = UnsafePointer(stream.storage.baseAddress)
        let room = UnsafeMutableRawBufferPointer(
            start: stream.storage.baseAddress! + kept, count: stream.storage.count - kept)
        let count: Int
        do {
            count = try stream.read(room)
        } catch {
            stream.failure = error
            stream.ended = true
            end = base + kept
            return false
        }
        end = base + kept + max(0, min(count, room.count))
        if count <= 0 { stream.ended = true }
        return count > 0
    }

    /// The bytes at `start ..< stop`, which `byte(at:keeping: start)` has brought into the window.
    private func bytes(_ start: Int, _ stop: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: window.map { $0 + (start - base) }, count: stop - start)
    }

    private mutating func current() -> UInt8? { byteAt(position, keeping: position) }

    mutating func skipSpace() {
        while let byte = byteAt(position, keeping: position) {
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    package mutating func peek() -> UInt8? {
        skipSpace()
        return current()
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
        guard peek() == UInt8(ascii: "n"), byteAt(position + 1, keeping: position) == UInt8(ascii: "u"),
            byteAt(position + 2, keeping: position) == UInt8(ascii: "l"),
            byteAt(position + 3, keeping: position) == UInt8(ascii: "l")
        else { return false }
        position += 4
        return true
    }

    package mutating func string(_ what: String) throws -> String {
        try stringBytes(what) { bytes, _ in String(decoding: bytes, as: UTF8.self) }
    }

    /// Calls `body` with a string's bytes (escapes resolved, checked to be UTF-8) and its offset, without making a
    /// `String` of them: the paths and hashes of a million files go straight into compact storage.
    package mutating func stringBytes<T>(
        _ what: String, _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> T
    ) throws -> T {
        guard peek() == UInt8(ascii: "\"") else { throw try shapeOrSyntax("\(what) must be a string") }
        position += 1
        let start = position
        while let byte = byteAt(position, keeping: start) {
            if byte == UInt8(ascii: "\"") {
                let text = bytes(start, position)
                try Self.validate(text, at: start)
                position += 1
                return try body(text, start)
            }
            if byte == UInt8(ascii: "\\") {
                let scalars = try escapedString(from: start)
                return try scalars.withUnsafeBufferPointer { try body($0, start) }
            }
            if byte < 0x20 { throw Failure.syntax(position) }
            position += 1
        }
        throw Failure.syntax(position)
    }

    private mutating func escapedString(from start: Int) throws -> [UInt8] {
        var scalars: [UInt8] = Array(bytes(start, position))
        while let next = current() {
            position += 1
            if next == UInt8(ascii: "\"") {
                try scalars.withUnsafeBufferPointer { try Self.validate($0, at: start) }
                return scalars
            }
            if next < 0x20 { throw Failure.syntax(position - 1) }
            guard next == UInt8(ascii: "\\") else {
                scalars.append(next)
                continue
            }
            guard let escape = current() else { break }
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
                    guard current() == UInt8(ascii: "\\"), byteAt(position + 1, keeping: position) == UInt8(ascii: "u")
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

    /// A syntax failure when the bytes are not UTF-8.
    private static func validate(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws {
        // Plain ASCII (nearly every path and hash) is UTF-8 as it is.
        if !bytes.contains(where: { $0 >= 0x80 }) { return }
        // Decoding replaces what is not UTF-8, so the text has the same bytes exactly when they were valid.
        // (Faster here than the generic String(validating:as:).)
        var text = String(decoding: bytes, as: UTF8.self)
        let valid = text.withUTF8 { decoded in
            decoded.count == bytes.count
                && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        guard valid else { throw Failure.syntax(offset) }
    }

    private mutating func hex4() throws -> UInt32 {
        guard byteAt(position + 3, keeping: position) != nil else { throw Failure.syntax(position) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let next = current()!
            let digit: UInt8
            switch next {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = next - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = next - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = next - UInt8(ascii: "A") + 10
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
        while let byte = byteAt(position, keeping: start),
            byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        {
            position += 1
        }
        guard position > start else { throw try shapeOrSyntax("\(what) must be a number") }
        let text = bytes(start, position)
        guard Self.isJSONNumber(text) else { throw Failure.syntax(start) }
        return String(decoding: text, as: UTF8.self)
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
        case UInt8(ascii: "\""): try stringBytes("value") { _, _ in }
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let start = position
            while let byte = byteAt(position, keeping: start), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) {
                position += 1
            }
            let word = String(decoding: bytes(start, position), as: UTF8.self)
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
