import Foundation

@testable import ODRPackFormats
@testable import ODRPackPlatform

/// The in-memory binary plist writer as it was before `BinaryPropertyListStream`: the reference the streamed bytes
/// are compared with (docs/build-output.md#bounded says the documents are the same bytes, written as a stream).
struct ReferenceBinaryPropertyList {
    static func data(_ value: PropertyListValue) -> Data {
        var writer = ReferenceBinaryPropertyListWriter()
        return writer.write(value)
    }
}

private struct ReferenceBinaryPropertyListWriter {
    /// Every object's bytes, one after another; objects are numbered depth-first and may be written out of order.
    var body: [UInt8] = []
    var offsets: [Int] = []

    mutating func write(_ root: PropertyListValue) -> Data {
        let count = Self.count(root)
        let refSize = count < 256 ? 1 : count < 65_536 ? 2 : 4
        offsets = Array(repeating: 0, count: count)
        var next = 0
        _ = flatten(root, refSize: refSize, next: &next)
        var data: [UInt8] = Array("bplist00".utf8)
        data.reserveCapacity(8 + body.count + count * 4 + 32)
        data.append(contentsOf: body)
        let tableOffset = data.count
        let offsetSize = tableOffset < 256 ? 1 : tableOffset < 65_536 ? 2 : tableOffset < 1 << 32 ? 4 : 8
        for offset in offsets { Self.appendBigEndian(UInt64(offset + 8), bytes: offsetSize, to: &data) }
        data.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
        Self.appendBigEndian(UInt64(count), bytes: 8, to: &data)
        Self.appendBigEndian(0, bytes: 8, to: &data)
        Self.appendBigEndian(UInt64(tableOffset), bytes: 8, to: &data)
        return Data(data)
    }

    static func count(_ value: PropertyListValue) -> Int {
        switch value {
        case .array(let items): return 1 + items.reduce(0) { $0 + count($1) }
        case .dictionary(let pairs): return 1 + pairs.count + pairs.values.reduce(0) { $0 + count($1) }
        default: return 1
        }
    }

    /// Numbers the value and its children, writes the children, then the value; returns its number.
    mutating func flatten(_ value: PropertyListValue, refSize: Int, next: inout Int) -> Int {
        let index = next
        next += 1
        switch value {
        case .bool(let flag):
            offsets[index] = body.count
            body.append(flag ? 0x09 : 0x08)
        case .int(let number):
            offsets[index] = body.count
            Self.appendInteger(number, to: &body)
        case .real(let number):
            offsets[index] = body.count
            body.append(0x23)
            Self.appendBigEndian(number.bitPattern, bytes: 8, to: &body)
        case .string(var text):
            offsets[index] = body.count
            let ascii = text.withUTF8 { utf8 in
                // One OR over the bytes: a high bit anywhere means UTF-16.
                guard utf8.reduce(0, |) < 0x80 else { return false }
                Self.appendMarker(0x50, count: utf8.count, to: &body)
                body.append(contentsOf: utf8)
                return true
            }
            if !ascii {
                let units = Array(text.utf16)
                Self.appendMarker(0x60, count: units.count, to: &body)
                for unit in units { body.append(contentsOf: [UInt8(unit >> 8), UInt8(unit & 0xFF)]) }
            }
        case .array(let items):
            let refs = items.map { flatten($0, refSize: refSize, next: &next) }
            offsets[index] = body.count
            Self.appendMarker(0xA0, count: refs.count, to: &body)
            for ref in refs { Self.appendBigEndian(UInt64(ref), bytes: refSize, to: &body) }
        case .data(let bytes):
            offsets[index] = body.count
            Self.appendMarker(0x40, count: bytes.count, to: &body)
            body.append(contentsOf: bytes)
        case .date(let seconds):
            offsets[index] = body.count
            body.append(0x33)
            Self.appendBigEndian(seconds.bitPattern, bytes: 8, to: &body)
        case .dictionary(let pairs):
            let keys = pairs.keys.sorted { $0.precedesByCodePoint($1) }
            let keyRefs = keys.map { flatten(.string($0), refSize: refSize, next: &next) }
            let valueRefs = keys.map { flatten(pairs[$0]!, refSize: refSize, next: &next) }
            offsets[index] = body.count
            Self.appendMarker(0xD0, count: keys.count, to: &body)
            for ref in keyRefs + valueRefs { Self.appendBigEndian(UInt64(ref), bytes: refSize, to: &body) }
        }
        return index
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
