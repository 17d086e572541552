/// Text odrpack writes into a YAML manifest (`init`, `import-xcode`): names come from the disk or a project, so none may
/// end a line or a scalar.
package enum YAMLScalar {
    /// A double-quoted YAML scalar: `"` and `\` escaped, `\n` and `\t` as their short escapes, and every other line
    /// break (U+0085, U+2028, U+2029) and control character as `\uXXXX`, so no name can end the line.
    package static func doubleQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x85 || scalar.value == 0x2028
                    || scalar.value == 0x2029
                {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
