import ODRPackCore

extension Diagnostic {
    /// The compiler-like form editors and CI annotate: `file:line:column: error: message [code]`.
    var formatted: String {
        var prefix = ""
        if let location {
            prefix = "\(location.file):\(location.line):\(location.column): "
        }
        return "\(prefix)\(severity.rawValue): \(message) [\(code.rawValue)]"
    }
}
