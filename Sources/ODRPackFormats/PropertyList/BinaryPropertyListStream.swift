import ODRPackPlatform

/// A binary plist (`bplist00`) written object by object into a sink as they are made (docs/build-output.md#bounded):
/// what it keeps is one offset per object (8 bytes), never the objects, so a document of a million strings costs a few
/// megabytes however long its strings. The bytes are those of `PropertyListValue.binaryData()`, which is written
/// through this too: objects numbered depth-first in the order they are made (a container takes its number before its
/// children, `reserve()`, and is written after them), no object shared, and a reference as wide as the object count needs.
///
/// The width of references is fixed by the number of objects, which the first container written already needs: `write`
/// runs its producer twice, first only counting (nothing made or written), then writing.
package struct BinaryPropertyListStream {
    /// Nil while counting.
    private var sink: DocumentSink?
    /// Where the plist starts in the sink.
    private let start: Int64
    /// Each object's offset from the plist's start, by number (writing only).
    private var offsets: [Int] = []
    private var next = 0
    private let refSize: Int

    private init(sink: DocumentSink?, start: Int64, objectCount: Int) {
        self.sink = sink
        self.start = start
        refSize = objectCount < 256 ? 1 : objectCount < 65_536 ? 2 : 4
        if sink != nil { offsets = Array(repeating: 0, count: objectCount) }
    }

    /// Writes the plist `produce` makes into `sink`; `produce` makes the root object first (its number is 0) and
    /// must make the same objects each time it is called (it is called twice).
    package static func write(
        to sink: inout DocumentSink, _ produce: (inout BinaryPropertyListStream) throws -> Void
    ) throws {
        var counting = BinaryPropertyListStream(sink: nil, start: 0, objectCount: 0)
        try produce(&counting)
        let start = sink.count
        try sink.append(Array("bplist00".utf8))
        var stream = BinaryPropertyListStream(sink: sink, start: start, objectCount: counting.next)
        sink.buffer = []  // The stream holds the sink meanwhile: one buffer, not two.
        try produce(&stream)
        guard var body = stream.sink else { return }
        try stream.writeTrailer(into: &body)
        sink = body
    }

    /// The offset table and the trailer.
    private func writeTrailer(into sink: inout DocumentSink) throws {
        let tableOffset = Int(sink.count - start)
        let offsetSize = tableOffset < 256 ? 1 : tableOffset < 65_536 ? 2 : tableOffset < 1 << 32 ? 4 : 8
        for offset in offsets {
            Self.appendBigEndian(UInt64(offset), bytes: offsetSize, to: &sink.buffer)
            try sink.flushIfFull()
        }
        sink.buffer.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
        Self.appendBigEndian(UInt64(offsets.count), bytes: 8, to: &sink.buffer)
        Self.appendBigEndian(0, bytes: 8, to: &sink.buffer)
        Self.appendBigEndian(UInt64(tableOffset), bytes: 8, to: &sink.buffer)
        try sink.flushIfFull()
    }

    /// The next object's number, for a container made after its children (`array`, `dictionary`).
    package mutating func reserve() -> Int {
        next += 1
        return next - 1
    }

    /// Writes object `number`'s bytes, which `write` appends.
    private mutating func object(_ number: Int, _ write: (inout [UInt8]) -> Void) throws {
        guard sink != nil else { return }
        offsets[number] = Int(sink!.count - start)
        write(&sink!.buffer)
        try sink!.flushIfFull()
    }

    @discardableResult
    package mutating func string(_ text: String) throws -> Int {
        let number = reserve()
        try object(number) { body in Self.appendString(text, to: &body) }
        return number
    }

    /// An array made of the objects numbered `refs`, made before it.
    package mutating func array(_ number: Int, refs: some Collection<Int>) throws {
        try object(number) { [refSize] body in
            Self.appendMarker(0xA0, count: refs.count, to: &body)
            for ref in refs { Self.appendBigEndian(UInt64(ref), bytes: refSize, to: &body) }
        }
    }

    /// A dictionary of the keys numbered `keys` (strings, in the order given) and the values numbered `values`.
    package mutating func dictionary(_ number: Int, keys: [Int], values: [Int]) throws {
        try object(number) { [refSize] body in
            Self.appendMarker(0xD0, count: keys.count, to: &body)
            for ref in keys { Self.appendBigEndian(UInt64(ref), bytes: refSize, to: &body) }
            for ref in values { Self.appendBigEndian(UInt64(ref), bytes: refSize, to: &body) }
        }
    }

    /// A whole value: numbers it and its children, writes the children, then it; returns its number. Dictionary keys
    /// in code-point order, as every document odrpack writes has them.
    @discardableResult
    package mutating func value(_ value: PropertyListValue) throws -> Int {
        switch value {
        case .string(let text):
            return try string(text)
        case .array(let items):
            let number = reserve()
            var refs: [Int] = []
            refs.reserveCapacity(items.count)
            for item in items { refs.append(try self.value(item)) }
            try array(number, refs: refs)
            return number
        case .dictionary(let pairs):
            let number = reserve()
            let keys = pairs.keys.sorted { $0.precedesByCodePoint($1) }
            var keyRefs: [Int] = []
            for key in keys { keyRefs.append(try string(key)) }
            var valueRefs: [Int] = []
            for key in keys { valueRefs.append(try self.value(pairs[key] ?? .bool(false))) }
            try dictionary(number, keys: keyRefs, values: valueRefs)
            return number
        default:
            let number = reserve()
            try object(number) { body in Self.appendScalar(value, to: &body) }
            return number
        }
    }

    private static func appendScalar(_ value: PropertyListValue, to body: inout [UInt8]) {
        switch value {
        case .bool(let flag):
            body.append(flag ? 0x09 : 0x08)
        case .int(let number):
            appendInteger(number, to: &body)
        case .real(let number):
            body.append(0x23)
            appendBigEndian(number.bitPattern, bytes: 8, to: &body)
        case .data(let bytes):
            appendMarker(0x40, count: bytes.count, to: &body)
            body.append(contentsOf: bytes)
        case .date(let seconds):
            body.append(0x33)
            appendBigEndian(seconds.bitPattern, bytes: 8, to: &body)
        case .string(let text):
            appendString(text, to: &body)
        case .array, .dictionary:
            break  // Containers are written by `value`.
        }
    }

    /// ASCII as bytes, anything else as UTF-16.
    private static func appendString(_ text: String, to body: inout [UInt8]) {
        var text = text
        let ascii = text.withUTF8 { utf8 in
            // One OR over the bytes: a high bit anywhere means UTF-16.
            guard utf8.reduce(0, |) < 0x80 else { return false }
            appendMarker(0x50, count: utf8.count, to: &body)
            body.append(contentsOf: utf8)
            return true
        }
        if !ascii {
            appendMarker(0x60, count: text.utf16.count, to: &body)
            for unit in text.utf16 { body.append(contentsOf: [UInt8(unit >> 8), UInt8(unit & 0xFF)]) }
        }
    }

    static func appendMarker(_ type: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(type | UInt8(count))
        } else {
            output.append(type | 0x0F)
            appendInteger(Int64(count), to: &output)
        }
    }

    static func appendInteger(_ value: Int64, to output: inout [UInt8]) {
        if value < 0 {
            output.append(0x13)
            appendBigEndian(UInt64(bitPattern: value), bytes: 8, to: &output)
        } else if value < 1 << 8 {
            output.append(contentsOf: [0x10, UInt8(value)])
        } else if value < 1 << 16 {
            output.append(0x11)
            appendBigEndian(UInt64(value), bytes: 2, to: &output)
        } else if value < 1 << 32 {
            output.append(0x12)
            appendBigEndian(UInt64(value), bytes: 4, to: &output)
        } else {
            output.append(0x13)
            appendBigEndian(UInt64(value), bytes: 8, to: &output)
        }
    }

    static func appendBigEndian(_ value: UInt64, bytes: Int, to output: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { output.append(contentsOf: $0.suffix(bytes)) }
    }
}
