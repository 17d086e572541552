/// A problem found in a project: recoverable problems are collected as values and printed by the front end.
public struct Diagnostic: Equatable, Sendable {
    public enum Severity: String, Sendable, Comparable {
        case error, warning
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
    }

    public var severity: Severity
    public var code: DiagnosticCode
    public var message: String
    public var location: SourceLocation?
    /// What the problem is about: a resource path, a tag or a pack id.
    public var subject: String?

    public init(_ severity: Severity, _ code: DiagnosticCode, _ message: String,
                at location: SourceLocation? = nil, subject: String? = nil) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        self.subject = subject
    }

    public static func error(_ code: DiagnosticCode, _ message: String,
                             at location: SourceLocation? = nil, subject: String? = nil) -> Diagnostic {
        Diagnostic(.error, code, message, at: location, subject: subject)
    }

    public static func warning(_ code: DiagnosticCode, _ message: String,
                               at location: SourceLocation? = nil, subject: String? = nil) -> Diagnostic {
        Diagnostic(.warning, code, message, at: location, subject: subject)
    }

    /// The compiler-like form editors and CI annotate: `file:line:column: error: message [code]`.
    public var formatted: String {
        var prefix = ""
        if let location {
            prefix = "\(location.file):\(location.line):\(location.column): "
        }
        return "\(prefix)\(severity.rawValue): \(message) [\(code.rawValue)]"
    }
}

extension Array where Element == Diagnostic {
    public var errorCount: Int { lazy.filter { $0.severity == .error }.count }
    public var warningCount: Int { lazy.filter { $0.severity == .warning }.count }
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
