import Foundation
import ODRPackCore
import ODRPackPlatform

/// `--github` (docs/commands.md#report-and-ci): every diagnostic as a GitHub Actions workflow command, and a Markdown summary for
/// the job's page appended to the file `GITHUB_STEP_SUMMARY` names.
package enum GitHubActions {
    /// `::error file=F,line=L,col=C,title=CODE::MESSAGE`; `file`, `line` and `col` only where known.
    package static func command(_ diagnostic: Diagnostic) -> String {
        var properties: KeyValuePairs<String, String> = ["title": diagnostic.code.rawValue]
        if let location = diagnostic.location {
            properties = [
                "file": location.file, "line": "\(location.line)", "col": "\(location.column)",
                "title": diagnostic.code.rawValue,
            ]
        }
        return workflowCommand(diagnostic.severity.rawValue, properties, message: diagnostic.message)
    }

    /// `::error title=TITLE::MESSAGE` for a failure that is no diagnostic (a store command's error).
    package static func error(title: String, message: String) -> String {
        workflowCommand("error", ["title": title], message: message) + "\n"
    }

    /// `::NAME KEY=VALUE,...::MESSAGE`, each property value and the message escaped: the one place a workflow
    /// command is made.
    static func workflowCommand(_ name: String, _ properties: KeyValuePairs<String, String>, message: String)
        -> String
    {
        let listed = properties.map { $0.key + "=" + escapeProperty($0.value) }.joined(separator: ",")
        return "::\(name) \(listed)::\(escapeData(message))"
    }

    package static func commands(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map { command($0) + "\n" }.joined()
    }

    /// The message: `%`, CR and LF escaped as GitHub requires, then every other control character as on a terminal
    /// (`\x1b`): the log shows a workflow command's text raw.
    static func escapeData(_ text: String) -> String {
        TerminalText.escaped(
            text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A"))
    }

    /// A property value: as a message, and `:` and `,` too.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// Appends `markdown` to the file `GITHUB_STEP_SUMMARY` names, when it names one.
    package static func appendStepSummary(_ markdown: String, environment: [String: String]) throws {
        guard let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
        try StandardStream.append(markdown, toFileAt: FilePath(path), name: "GITHUB_STEP_SUMMARY")
    }
}
