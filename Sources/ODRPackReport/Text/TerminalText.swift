/// Text that cannot take over a terminal (docs/commands.md#conventions): every name, tag, path or server text odrpack
/// prints has its control characters shown escaped, so a file name cannot clear the screen, set the window title or
/// rewrite a line. The one function every printer goes through.
package enum TerminalText {
    /// `text` with every C0 control but tab (and, with `keepingLineBreaks`, LF), DEL and every C1 control escaped:
    /// LF `\n`, CR `\r`, others `\x1b`, `\x7f`, `\u{9b}` (a C1 control is a character, not a byte). Text without
    /// one is returned as it is, so output that had none keeps every byte.
    /// - Parameter keepingLineBreaks: for a whole document whose own lines end in LF; a name or a one-line message
    ///   (a diagnostic, a table cell, a listed path) escapes its LF too, so it stays one line.
    /// A line that begins with `::` (after spaces or tabs) has that first `:` shown as `\x3a`: GitHub Actions reads
    /// such a line of a step's output, stdout or stderr, as a workflow command (`::stop-commands::`, `::add-mask::`),
    /// so a file name or a server's text printed at a line's start could otherwise drive the runner
    /// (docs/commands.md#conventions). odrpack's own `--github` commands are printed apart (`workflowCommands`).
    /// - Parameter keepingLineBreaks: as for the control characters; each line is checked.
    package static func escaped(_ text: some StringProtocol, keepingLineBreaks: Bool = false) -> String {
        let shown = escapedControls(text, keepingLineBreaks: keepingLineBreaks)
        guard shown.contains("::") else { return shown }
        var out = ""
        out.reserveCapacity(shown.utf8.count + 8)
        for (index, line) in shown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { out += "\n" }
            let indent = line.prefix { $0 == " " || $0 == "\t" }
            if line.dropFirst(indent.count).hasPrefix("::") {
                out += indent + "\\x3a" + line.dropFirst(indent.count + 1)
            } else {
                out += line
            }
        }
        return out
    }

    /// Text that is meant to be read as workflow commands (`--github`'s annotations, built with their own escapes):
    /// control characters escaped, lines kept, its `::` left as it is.
    package static func workflowCommands(_ text: some StringProtocol) -> String {
        escapedControls(text, keepingLineBreaks: true)
    }

    private static func escapedControls(_ text: some StringProtocol, keepingLineBreaks: Bool) -> String {
        func needsEscape(_ value: UInt32) -> Bool {
            (value < 0x20 && value != 0x09 && !(keepingLineBreaks && value == 0x0A)) || (0x7F...0x9F).contains(value)
        }
        guard text.unicodeScalars.contains(where: { needsEscape($0.value) }) else { return String(text) }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            guard needsEscape(value) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x80...0x9F: out += "\\u{" + String(value, radix: 16) + "}"
            default: out += "\\x" + (value < 0x10 ? "0" : "") + String(value, radix: 16)
            }
        }
        return out
    }
}
