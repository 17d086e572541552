import ODRPackCore

extension Diagnostic {
    /// The compiler-like form editors and CI annotate: `file:line:column: error: message [code]`, one line whatever
    /// the names in it hold (their control characters and line breaks escaped).
    var formatted: String {
        var prefix = ""
        if let location {
            prefix = "\(TerminalText.escaped(location.file)):\(location.line):\(location.column): "
        }
        return "\(prefix)\(severity.rawValue): \(TerminalText.escaped(message)) [\(code.rawValue)]"
    }
}
