import Foundation

/// A JSON document with ordered keys, so output is byte-for-byte deterministic and keys read in a natural order.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// What `bytes(indent:)` made for a value at the indent where this one goes, spliced in as it is: a large
    /// document's parts can be made apart (or copied from an earlier file). Always on a line of its own, like an object.
    case written([UInt8])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.written(let a), .written(let b)): return a == b
        default: return false
        }
    }

    package static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    package static func optional(_ value: Int64?) -> JSONValue { value.map(JSONValue.int) ?? .null }
    package static func optional(_ value: Int?) -> JSONValue { value.map { .int(Int64($0)) } ?? .null }
    package static func optional(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }
    package static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

    /// Pretty-printed with two-space indentation and a final newline. Arrays of scalars stay on one line unless
    /// `expandingArrays`, which gives the common form (`JSON.stringify(v, null, 2)`, Python's `indent=2`) that
    /// documents read by other tools use.
    package func serialized(expandingArrays: Bool = false) -> String {
        String(decoding: serializedBytes(expandingArrays: expandingArrays), as: UTF8.self)
    }

    /// `serialized()` as UTF-8, without the copy into a `String`.
    /// - Parameter capacity: about the size to expect, which spares a large document its copies as it grows.
    package func serializedBytes(expandingArrays: Bool = false, capacity: Int = 4096) -> [UInt8] {
        var output = bytes(indent: 0, expandingArrays: expandingArrays, capacity: capacity)
        output.append(0x0A)
        return output
    }

    /// The value as it is written at nesting level `indent` (no final newline): what `.written` takes.
    package func bytes(indent: Int, expandingArrays: Bool = false, capacity: Int = 4096) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(capacity)
        write(to: &output, indent: indent, expandingArrays: expandingArrays)
        return output
    }

    private func write(to output: inout [UInt8], indent: Int, expandingArrays: Bool) {
        switch self {
        case .null: output.append(contentsOf: Self.nullBytes)
        case .bool(let value): output.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
        case .int(let value): Self.writeInteger(value, to: &output)
        case .double(let value):
            output.append(contentsOf: (value.isFinite ? "\(value)" : "null").utf8)
        case .string(let value): Self.writeString(value, to: &output)
        case .written(let bytes): output.append(contentsOf: bytes)
        case .array(let values):
            if values.isEmpty {
                output.append(contentsOf: Self.emptyArray)
                return
            }
            if !expandingArrays && values.allSatisfy(\.isScalar) {
                output.append(UInt8(ascii: "["))
                for (index, value) in values.enumerated() {
                    if index > 0 { output.append(contentsOf: Self.commaSpace) }
                    value.write(to: &output, indent: indent, expandingArrays: expandingArrays)
                }
                output.append(UInt8(ascii: "]"))
                return
            }
            output.append(contentsOf: Self.openArray)
            for (index, value) in values.enumerated() {
                Self.writeIndent(indent + 1, to: &output)
                value.write(to: &output, indent: indent + 1, expandingArrays: expandingArrays)
                output.append(contentsOf: index == values.count - 1 ? Self.newline : Self.commaNewline)
            }
            Self.writeIndent(indent, to: &output)
            output.append(UInt8(ascii: "]"))
        case .object(let pairs):
            if pairs.isEmpty {
                output.append(contentsOf: Self.emptyObject)
                return
            }
            output.append(contentsOf: Self.openObject)
            for (index, (key, value)) in pairs.enumerated() {
                Self.writeIndent(indent + 1, to: &output)
                Self.writeString(key, to: &output)
                output.append(contentsOf: Self.colonSpace)
                value.write(to: &output, indent: indent + 1, expandingArrays: expandingArrays)
                output.append(contentsOf: index == pairs.count - 1 ? Self.newline : Self.commaNewline)
            }
            Self.writeIndent(indent, to: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeIndent(_ level: Int, to output: inout [UInt8]) {
        var count = level * 2
        while count > 0 {
            let piece = min(count, spaces.count)
            output.append(contentsOf: spaces[..<piece])
            count -= piece
        }
    }

    // The punctuation as bytes: appending a `String.utf8` goes through a slow generic path.
    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)
    private static let nullBytes = Array("null".utf8), trueBytes = Array("true".utf8), falseBytes = Array("false".utf8)
    private static let emptyArray = Array("[]".utf8), emptyObject = Array("{}".utf8)
    private static let openArray = Array("[\n".utf8), openObject = Array("{\n".utf8)
    private static let commaSpace = Array(", ".utf8), colonSpace = Array(": ".utf8)
    private static let newline = Array("\n".utf8), commaNewline = Array(",\n".utf8)

    private var isScalar: Bool {
        switch self {
        case .array, .object, .written: return false
        default: return true
        }
    }

    /// What `.int(value)` writes.
    package static func writeInteger(_ value: Int64, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = output.count
        repeat {
            output.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        output[start...].reverse()
    }

    /// What `.string(value)` writes.
    package static func writeString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most strings (paths, hashes, ids) need no escaping: copied whole.
        var value = value
        let plain = value.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if plain {
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
            case 0x0A: output.append(contentsOf: "\\n".utf8)
            case 0x0D: output.append(contentsOf: "\\r".utf8)
            case 0x09: output.append(contentsOf: "\\t".utf8)
            case 0..<0x20, 0x7F: output.append(contentsOf: String(format: "\\u%04x", byte).utf8)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
