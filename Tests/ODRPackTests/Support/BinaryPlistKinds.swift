import Foundation

/// Reads a binary plist's objects by their marker bytes, independently of Foundation (whose bridge can make a
/// boolean look like the integer 1): tests compare kinds as the bytes hold them.
struct BinaryPlistKinds {
    /// A value as its marker says: `0x08`/`0x09` booleans, `0x1n` integers, strings, arrays and dictionaries.
    indirect enum Value: Equatable {
        case bool(Bool)
        case int(Int64)
        case real(Double)
        case string(String)
        case array([Value])
        case dictionary([String: Value])
        case other(UInt8)
    }

    struct FormatError: Error {}

    private let bytes: [UInt8]
    private let offsetSize: Int
    private let referenceSize: Int
    private let offsetTableStart: Int
    private let objectCount: Int
    private let top: Int

    /// The whole document's top object.
    static func read(_ data: Data) throws -> Value {
        let reader = try BinaryPlistKinds(Array(data))
        return try reader.object(reader.top, depth: 0)
    }

    private init(_ bytes: [UInt8]) throws {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else { throw FormatError() }
        self.bytes = bytes
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        objectCount = Int(Self.integer(bytes[(trailer + 8)..<(trailer + 16)]))
        top = Int(Self.integer(bytes[(trailer + 16)..<(trailer + 24)]))
        offsetTableStart = Int(Self.integer(bytes[(trailer + 24)..<(trailer + 32)]))
        guard offsetSize > 0, referenceSize > 0, offsetTableStart + objectCount * offsetSize <= trailer else {
            throw FormatError()
        }
    }

    private static func integer(_ slice: ArraySlice<UInt8>) -> UInt64 {
        slice.reduce(0) { $0 << 8 | UInt64($1) }
    }

    private func offset(of object: Int) throws -> Int {
        guard object < objectCount else { throw FormatError() }
        let start = offsetTableStart + object * offsetSize
        return Int(Self.integer(bytes[start..<(start + offsetSize)]))
    }

    /// The length that follows a marker: its low nibble, or an integer object after it when that nibble is 15.
    private func length(at position: Int) throws -> (count: Int, next: Int) {
        let low = Int(bytes[position] & 0x0F)
        if low != 0x0F { return (low, position + 1) }
        let width = 1 << Int(bytes[position + 1] & 0x0F)
        return (Int(Self.integer(bytes[(position + 2)..<(position + 2 + width)])), position + 2 + width)
    }

    private func object(_ index: Int, depth: Int) throws -> Value {
        guard depth < 64 else { throw FormatError() }
        let position = try offset(of: index)
        let marker = bytes[position]
        switch marker >> 4 {
        case 0x0 where marker == 0x08: return .bool(false)
        case 0x0 where marker == 0x09: return .bool(true)
        case 0x1:
            let width = 1 << Int(marker & 0x0F)
            let raw = Self.integer(bytes[(position + 1)..<(position + 1 + width)])
            return .int(width == 8 ? Int64(bitPattern: raw) : Int64(raw))
        case 0x2:
            let width = 1 << Int(marker & 0x0F)
            let raw = Self.integer(bytes[(position + 1)..<(position + 1 + width)])
            return .real(width == 8 ? Double(bitPattern: raw) : Double(Float(bitPattern: UInt32(raw))))
        case 0x5:
            let (count, start) = try length(at: position)
            return .string(String(decoding: bytes[start..<(start + count)], as: UTF8.self))
        case 0x6:
            let (count, start) = try length(at: position)
            var units: [UInt16] = []
            for unit in 0..<count {
                units.append(UInt16(bytes[start + 2 * unit]) << 8 | UInt16(bytes[start + 2 * unit + 1]))
            }
            return .string(String(decoding: units, as: UTF16.self))
        case 0xA:
            let (count, start) = try length(at: position)
            return .array(try (0..<count).map { try object(reference(start, $0), depth: depth + 1) })
        case 0xD:
            let (count, start) = try length(at: position)
            var pairs: [String: Value] = [:]
            for item in 0..<count {
                guard case .string(let key) = try object(reference(start, item), depth: depth + 1) else {
                    throw FormatError()
                }
                pairs[key] = try object(reference(start, count + item), depth: depth + 1)
            }
            return .dictionary(pairs)
        default: return .other(marker)
        }
    }

    private func reference(_ start: Int, _ item: Int) -> Int {
        let at = start + item * referenceSize
        return Int(Self.integer(bytes[at..<(at + referenceSize)]))
    }
}

extension BinaryPlistKinds.Value {
    subscript(key: String) -> Self? {
        if case .dictionary(let pairs) = self { return pairs[key] }
        return nil
    }

    var items: [Self] {
        if case .array(let values) = self { return values }
        return []
    }
}
