import ODRPackPlatform

/// A problem found in a project: recoverable problems are collected as values and printed by the front end.
package struct Diagnostic: Equatable, Sendable {
    package enum Severity: String, Sendable, Comparable {
        case error, warning
        package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
    }

    package let severity: Severity
    package let code: DiagnosticCode
    package let message: String
    package var location: SourceLocation?
    /// What the problem is about: a resource path, a tag or a pack id.
    package var subject: String?

    package init(
        _ severity: Severity, _ code: DiagnosticCode, _ message: String,
        at location: SourceLocation? = nil, subject: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        self.subject = subject
    }

    package static func error(
        _ code: DiagnosticCode, _ message: String,
        at location: SourceLocation? = nil, subject: String? = nil
    ) -> Diagnostic {
        Diagnostic(.error, code, message, at: location, subject: subject)
    }

    package static func warning(
        _ code: DiagnosticCode, _ message: String,
        at location: SourceLocation? = nil, subject: String? = nil
    ) -> Diagnostic {
        Diagnostic(.warning, code, message, at: location, subject: subject)
    }
}

extension Array where Element == Diagnostic {
    package var errorCount: Int { lazy.filter { $0.severity == .error }.count }
    package var warningCount: Int { lazy.filter { $0.severity == .warning }.count }
    package var hasErrors: Bool { contains { $0.severity == .error } }
    /// As they are printed (docs/diagnostics.md): those with a position in the order of their file, line and column,
    /// then the others in the order of the checks that found them. Stable: one position keeps its checks' order.
    package var inPositionOrder: [Diagnostic] {
        let positioned = enumerated().filter { $0.element.location != nil }.sorted {
            let a = $0.element.location!
            let b = $1.element.location!
            if a.file != b.file { return a.file.precedesByCodePoint(b.file) }
            return (a.line, a.column, $0.offset) < (b.line, b.column, $1.offset)
        }
        return positioned.map(\.element) + filter { $0.location == nil }
    }
    /// Whether a command that writes must write nothing: an error, or under `--warnings-as-errors` any warning
    /// (docs/commands.md#scripts: one gate for every command).
    package func stopsWriting(warningsAsErrors: Bool) -> Bool {
        hasErrors || (warningsAsErrors && contains { $0.severity == .warning })
    }
}
