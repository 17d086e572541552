/// Text odrpack writes into a YAML manifest (`init`, `import-xcode`): names come from the disk or a project, so none may
/// end a line or a scalar.
package enum YAMLScalar {
    /// A double-quoted YAML scalar: `"` and `\` escaped, `\n` and `\t` as their short escapes, and as `\uXXXX` every
    /// other line break (U+0085, U+2028, U+2029), every control character (C0, DEL, C1) and what YAML does not let a
    /// stream hold as it is (U+FFFE, U+FFFF) or reads as a byte-order mark (U+FEFF): no name can end the line, and a
    /// YAML parser reads every name back (docs/commands.md#conventions).
    package static func doubleQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                let value = scalar.value
                if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
                    || value == 0xFEFF || value == 0xFFFE || value == 0xFFFF
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
