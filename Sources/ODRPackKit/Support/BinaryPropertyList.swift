import Foundation

/// A property list value written as a binary plist (`bplist00`) with sorted dictionary keys,
/// so the same value always gives the same bytes.
public indirect enum PropertyListValue: Equatable, Sendable {
    case bool(Bool)
    case int(Int64)
    case real(Double)
    case string(String)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    public func binaryData() -> Data {
        var writer = BinaryPropertyListWriter()
        return writer.write(self)
    }
}

private struct BinaryPropertyListWriter {
    /// Objects flattened depth-first; containers hold the indices of their children.
    var objects: [Data] = []

    mutating func write(_ root: PropertyListValue) -> Data {
        let count = Self.count(root)
        let refSize = count < 256 ? 1 : count < 65_536 ? 2 : 4
        _ = flatten(root, refSize: refSize)
        var data = Data("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(data.count)
            data.append(object)
        }
        let tableOffset = data.count
        let offsetSize = tableOffset < 256 ? 1 : tableOffset < 65_536 ? 2 : tableOffset < 1 << 32 ? 4 : 8
        for offset in offsets { data.append(Self.bigEndian(UInt64(offset), bytes: offsetSize)) }
        data.append(Data(repeating: 0, count: 6))
        data.append(UInt8(offsetSize))
        data.append(UInt8(refSize))
        data.append(Self.bigEndian(UInt64(objects.count), bytes: 8))
        data.append(Self.bigEndian(0, bytes: 8))
        data.append(Self.bigEndian(UInt64(tableOffset), bytes: 8))
        return data
    }

    static func count(_ value: PropertyListValue) -> Int {
        switch value {
        case let .array(items): return 1 + items.reduce(0) { $0 + count($1) }
        case let .dictionary(pairs): return 1 + pairs.count + pairs.values.reduce(0) { $0 + count($1) }
        default: return 1
        }
    }

    /// Appends the value (and its children) and returns its object index.
    mutating func flatten(_ value: PropertyListValue, refSize: Int) -> Int {
        let index = objects.count
        objects.append(Data())
        var data = Data()
        switch value {
        case let .bool(flag):
            data.append(flag ? 0x09 : 0x08)
        case let .int(number):
            data.append(contentsOf: Self.integer(number))
        case let .real(number):
            data.append(0x23)
            data.append(Self.bigEndian(number.bitPattern, bytes: 8))
        case let .string(text):
            if text.unicodeScalars.allSatisfy(\.isASCII) {
                data.append(contentsOf: Self.marker(0x50, count: text.utf8.count))
                data.append(contentsOf: text.utf8)
            } else {
                let units = Array(text.utf16)
                data.append(contentsOf: Self.marker(0x60, count: units.count))
                for unit in units { data.append(contentsOf: [UInt8(unit >> 8), UInt8(unit & 0xFF)]) }
            }
        case let .array(items):
            let refs = items.map { flatten($0, refSize: refSize) }
            data.append(contentsOf: Self.marker(0xA0, count: refs.count))
            for ref in refs { data.append(Self.bigEndian(UInt64(ref), bytes: refSize)) }
        case let .dictionary(pairs):
            let keys = pairs.keys.sorted { $0.precedesByCodePoint($1) }
            let keyRefs = keys.map { flatten(.string($0), refSize: refSize) }
            let valueRefs = keys.map { flatten(pairs[$0]!, refSize: refSize) }
            data.append(contentsOf: Self.marker(0xD0, count: keys.count))
            for ref in keyRefs + valueRefs { data.append(Self.bigEndian(UInt64(ref), bytes: refSize)) }
        }
        objects[index] = data
        return index
    }

    static func marker(_ type: UInt8, count: Int) -> [UInt8] {
        count < 15 ? [type | UInt8(count)] : [type | 0x0F] + integer(Int64(count))
    }

    static func integer(_ value: Int64) -> [UInt8] {
        if value < 0 { return [0x13] + Array(bigEndian(UInt64(bitPattern: value), bytes: 8)) }
        if value < 1 << 8 { return [0x10, UInt8(value)] }
        if value < 1 << 16 { return [0x11] + Array(bigEndian(UInt64(value), bytes: 2)) }
        if value < 1 << 32 { return [0x12] + Array(bigEndian(UInt64(value), bytes: 4)) }
        return [0x13] + Array(bigEndian(UInt64(value), bytes: 8))
    }

    static func bigEndian(_ value: UInt64, bytes: Int) -> Data {
        Data((0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (UInt64($0) * 8)) })
    }
}
