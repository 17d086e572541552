import Foundation

/// A JSON document with ordered keys, so output is byte-for-byte deterministic and keys read in a natural order.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    public static func optional(_ value: Int64?) -> JSONValue { value.map(JSONValue.int) ?? .null }
    public static func optional(_ value: Int?) -> JSONValue { value.map { .int(Int64($0)) } ?? .null }
    public static func optional(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }
    public static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

    /// Pretty-printed with two-space indentation and a final newline.
    public func serialized() -> String {
        var output = ""
        write(to: &output, indent: 0)
        output.append("\n")
        return output
    }

    private func write(to output: inout String, indent: Int) {
        switch self {
        case .null: output.append("null")
        case let .bool(value): output.append(value ? "true" : "false")
        case let .int(value): output.append(String(value))
        case let .double(value):
            output.append(value.isFinite ? "\(value)" : "null")
        case let .string(value): Self.writeString(value, to: &output)
        case let .array(values):
            if values.isEmpty { output.append("[]"); return }
            if values.allSatisfy(\.isScalar) {
                output.append("[")
                for (index, value) in values.enumerated() {
                    if index > 0 { output.append(", ") }
                    value.write(to: &output, indent: indent)
                }
                output.append("]")
                return
            }
            output.append("[\n")
            for (index, value) in values.enumerated() {
                output.append(Self.indentation(indent + 1))
                value.write(to: &output, indent: indent + 1)
                output.append(index == values.count - 1 ? "\n" : ",\n")
            }
            output.append(Self.indentation(indent) + "]")
        case let .object(pairs):
            if pairs.isEmpty { output.append("{}"); return }
            output.append("{\n")
            for (index, (key, value)) in pairs.enumerated() {
                output.append(Self.indentation(indent + 1))
                Self.writeString(key, to: &output)
                output.append(": ")
                value.write(to: &output, indent: indent + 1)
                output.append(index == pairs.count - 1 ? "\n" : ",\n")
            }
            output.append(Self.indentation(indent) + "}")
        }
    }

    private static let indents = (0..<16).map { String(repeating: "  ", count: $0) }

    private static func indentation(_ level: Int) -> String {
        level < indents.count ? indents[level] : String(repeating: "  ", count: level)
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    private static func writeString(_ value: String, to output: inout String) {
        output.append("\"")
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
            output.append(value)
            output.append("\"")
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output.append("\\\"")
            case "\\": output.append("\\\\")
            case "\n": output.append("\\n")
            case "\r": output.append("\\r")
            case "\t": output.append("\\t")
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    output.append(String(format: "\\u%04x", scalar.value))
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output.append("\"")
    }
}
