import ArgumentParser
import ODRPackCore
import ODRPackReport

/// `--warnings-as-errors` (or `ODRPACK_WARNINGS_AS_ERRORS=1`), the one gate every command that reports diagnostics
/// takes (docs/commands.md#scripts): any warning is then an error, exit 1, and a command that writes writes nothing,
/// exactly as for an error. One option group, so every command reads the flag and the variable the same way.
struct WarningsGate: ParsableArguments {
    @Flag(help: "Treat every warning as an error: exit 1, and write nothing (also ODRPACK_WARNINGS_AS_ERRORS=1).")
    var warningsAsErrors = false

    static let environmentVariable = "ODRPACK_WARNINGS_AS_ERRORS"

    /// The flag, or the variable of the run's `environment` set to one of `environmentOn`.
    /// - Throws: `ValidationError` for a value that is neither on nor off (exit 64).
    func isOn(environment: [String: String]) throws -> Bool {
        try Self.environmentValue(environment) || warningsAsErrors
    }

    /// The variable's spellings, in any letter case: on, and off (unset or empty is off too).
    static let environmentOn: Set<String> = ["1", "true", "yes", "on"]
    static let environmentOff: Set<String> = ["0", "false", "no", "off", ""]

    /// What `ODRPACK_WARNINGS_AS_ERRORS` says: on, off (also unset), or a bad command line (exit 64) for any other
    /// value, so a gate that reads as set is never silently off.
    static func environmentValue(_ environment: [String: String]) throws -> Bool {
        guard let value = environment[environmentVariable] else { return false }
        let word = value.trimmingCharacters(in: .whitespaces).lowercased()
        if environmentOn.contains(word) { return true }
        if environmentOff.contains(word) { return false }
        throw ValidationError(
            """
            \(environmentVariable)='\(TerminalText.escaped(value))' is neither on (1, true, yes, on) nor off (0, false, \
            no, off, empty): set one of those
            """
        )
    }

    /// A bad value is a bad command line, found while parsing (as before the command starts), in the run's
    /// environment.
    func validate() throws {
        _ = try Self.environmentValue(CommandState.parsing.environment)
    }

    /// Whether the warnings alone fail the run when the gate `isOn`: then it says so as an error, and `--quiet` (only
    /// errors) still shows the warnings that failed it.
    static func failsOnWarnings(_ diagnostics: [Diagnostic], isOn: Bool, console: Console, json: Bool) throws -> Bool {
        guard isOn, !diagnostics.hasErrors, diagnostics.warningCount > 0 else { return false }
        let count = diagnostics.warningCount
        if console.quiet && !json { try console.printDiagnostics(diagnostics, warningsFail: true) }
        try console.error(
            "\(count) warning\(count == 1 ? "" : "s") treated as error\(count == 1 ? "" : "s") (--warnings-as-errors)")
        return true
    }
}
