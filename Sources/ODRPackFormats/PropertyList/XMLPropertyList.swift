import Foundation
import ODRPackPlatform

/// Writes a `PropertyListValue` as an XML plist, the form Xcode writes an app's Info.plist in: keys sorted, tabs,
/// booleans as `<true/>`/`<false/>` and integers as `<integer>`, each from its own case, so a boolean never turns
/// into the integer 1 on the way (as corelibs Foundation's bridge makes of a Swift `true`).
package enum XMLPropertyList {
    package static func data(_ value: PropertyListValue) -> Data {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            """
            <!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \
            \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n
            """
        out += "<plist version=\"1.0\">\n"
        write(value, depth: 0, to: &out)
        out += "</plist>\n"
        return Data(out.utf8)
    }

    private static func write(_ value: PropertyListValue, depth: Int, to out: inout String) {
        let indent = String(repeating: "\t", count: depth)
        switch value {
        case .bool(let flag): out += indent + (flag ? "<true/>" : "<false/>") + "\n"
        case .int(let number): out += indent + "<integer>\(number)</integer>\n"
        case .real(let number): out += indent + "<real>\(real(number))</real>\n"
        case .string(let text): out += indent + "<string>\(escaped(text))</string>\n"
        case .data(let bytes): out += indent + "<data>\(Data(bytes).base64EncodedString())</data>\n"
        case .date(let seconds):
            let time = UTCTime(secondsSince1970: Int64((seconds + 978_307_200).rounded(.down)))
            out +=
                indent
                + String(
                    format: "<date>%04d-%02d-%02dT%02d:%02d:%02dZ</date>\n",
                    time.year, time.month, time.day, time.hour, time.minute, time.second)
        case .array(let items):
            if items.isEmpty {
                out += indent + "<array/>\n"
                return
            }
            out += indent + "<array>\n"
            for item in items { write(item, depth: depth + 1, to: &out) }
            out += indent + "</array>\n"
        case .dictionary(let pairs):
            if pairs.isEmpty {
                out += indent + "<dict/>\n"
                return
            }
            out += indent + "<dict>\n"
            for key in pairs.keys.sorted(by: { $0.precedesByCodePoint($1) }) {
                out += indent + "\t<key>\(escaped(key))</key>\n"
                write(pairs[key]!, depth: depth + 1, to: &out)
            }
            out += indent + "</dict>\n"
        }
    }

    /// Apple's spellings of the special values; otherwise Swift's shortest form that reads back as the same number.
    private static func real(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number > 0 ? "+infinity" : "-infinity" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }

    private static func escaped(_ text: String) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return text }
        return text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
