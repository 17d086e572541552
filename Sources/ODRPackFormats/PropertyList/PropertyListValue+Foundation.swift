import Foundation

extension PropertyListValue {
    /// A value `PropertyListSerialization` read, or nil when it holds something a plist cannot (so it is not
    /// rewritten by this writer). A parsed Bool, integer or real keeps its kind.
    package init?(foundation value: Any) {
        switch value {
        case let flag as Bool where type(of: value) == Bool.self: self = .bool(flag)
        case let text as String: self = .string(text)
        // Before any `as Int` or `as Double`: bridging would read a real 1.0 as the integer 1. The number's own type
        // decides (Foundation reads plist integers and reals as NSNumbers; Swift's own numbers bridge to one).
        case let number as NSNumber:
            let kind = String(cString: number.objCType)
            if Self.isBoolean(number) {
                self = .bool(number.boolValue)
            } else if kind == "d" || kind == "f" {
                self = .real(number.doubleValue)
            } else {
                self = .int(number.int64Value)
            }
        case let bytes as Data: self = .data([UInt8](bytes))
        case let date as Date: self = .date(date.timeIntervalSinceReferenceDate)
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
