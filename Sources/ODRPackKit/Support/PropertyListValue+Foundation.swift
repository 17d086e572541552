import Foundation

extension PropertyListValue {
    /// A value `PropertyListSerialization` read, or nil when it holds something a plist cannot (so it is not
    /// rewritten by this writer). A parsed Bool, integer or real keeps its kind.
    public init?(foundation value: Any) {
        switch value {
        case let flag as Bool where type(of: value) == Bool.self: self = .bool(flag)
        case let text as String: self = .string(text)
        case let number as Int: self = .int(Int64(number))
        case let number as Int64: self = .int(number)
        case let number as UInt64 where number <= UInt64(Int64.max): self = .int(Int64(number))
        case let number as Double: self = .real(number)
        case let bytes as Data: self = .data([UInt8](bytes))
        case let date as Date: self = .date(date.timeIntervalSinceReferenceDate)
        case let number as NSNumber:
            let kind = String(cString: number.objCType)
            if Self.isBoolean(number) { self = .bool(number.boolValue) }
            else if kind == "d" || kind == "f" { self = .real(number.doubleValue) }
            else { self = .int(number.int64Value) }
        case let items as [Any]:
            var values: [PropertyListValue] = []
            for item in items {
                guard let converted = PropertyListValue(foundation: item) else { return nil }
                values.append(converted)
            }
            self = .array(values)
        case let pairs as [String: Any]:
            var values: [String: PropertyListValue] = [:]
            for (key, item) in pairs {
                guard let converted = PropertyListValue(foundation: item) else { return nil }
                values[key] = converted
            }
            self = .dictionary(values)
        default:
            return nil
        }
    }

    /// Darwin's Foundation reads a plist boolean as a CFBoolean NSNumber; corelibs gives a Bool (matched earlier).
    private static func isBoolean(_ number: NSNumber) -> Bool {
        #if canImport(Darwin)
        return CFGetTypeID(number) == CFBooleanGetTypeID()
        #else
        return false
        #endif
    }
}
