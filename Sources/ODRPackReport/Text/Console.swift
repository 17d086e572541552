import Foundation
import ODRPackCore
import ODRPackPlatform

/// Terminal output rules: colour and animation only on a TTY, never with NO_COLOR or TERM=dumb.
package struct Console: Sendable {
    var colorOnStderr: Bool
    package let stderrIsInteractive: Bool

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let interactive = SystemCall.isTerminal(StandardStream.error)
        let allowed = environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        stderrIsInteractive = interactive && allowed
        colorOnStderr = interactive && allowed
    }

    /// - Throws: `ODRPackError.systemCall` when the write fails (exit 2).
    package func printOut(_ text: String) throws {
        try StandardStream.write(text, to: StandardStream.output)
    }

    package func printError(_ text: String) throws {
        try StandardStream.write(text, to: StandardStream.error)
    }

    /// One diagnostic a line, compiler style, on stderr.
    package func printDiagnostics(_ diagnostics: [Diagnostic]) throws {
        var text = ""
        for diagnostic in diagnostics {
            var line = diagnostic.formatted
            if colorOnStderr {
                let word = diagnostic.severity.rawValue + ":"
                let color = diagnostic.severity == .error ? "\u{1B}[1;31m" : "\u{1B}[1;33m"
                if let range = line.range(of: word) { line.replaceSubrange(range, with: color + word + "\u{1B}[0m") }
            }
            text += line + "\n"
        }
        if !text.isEmpty { try printError(text) }
    }

    /// `2 errors, 1 warning`
    package static func countSummary(_ diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.errorCount
        let warnings = diagnostics.warningCount
        return "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
    }
}
