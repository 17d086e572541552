import ArgumentParser
import Foundation
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform
import ODRPackReport
import ODRPackStore

@main
struct ODRPack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "odrpack",
        abstract: "Package an app's resources into On-Demand Resources or Background Assets asset packs.",
        discussion: """
            One tag manifest (odrpack.yml) says which files carry which tags; odrpack plans the packs, checks them \
            against the store's limits, and writes them in either format: On-Demand Resources asset packs (iOS and \
            tvOS, the default) or Background Assets packs (--format background-assets, Apple's successor), \
            deterministically, on Linux or macOS. No manifest yet? `odrpack init` writes one. Exit status: 0 done, \
            1 a rule broken, 2 the tool could not do its job, 64 a bad command line, 130 interrupted. See odrpack(1).
            """,
        // `odrpack 0.6.0`, as cargo and git print theirs; the commit of a checkout with changes after the release
        // would need build-time information the package does not gather (docs/commands.md#scripts).
        version: "odrpack \(ToolVersion.current)",
        subcommands: [
            Init.self, Plan.self, Validate.self, Build.self, Verify.self, Diff.self, Thin.self, Report.self,
            ImportXcode.self, IPA.self, Upload.self, Submit.self, Status.self,
        ])

    /// The process: the run with the process's streams, environment and folder, then its status as the exit status.
    static func main() {
        StandardStream.reportFailedWritesAsErrors()
        // The raw argv as text that maps back to its bytes: a path that is not UTF-8 reaches its command as itself
        // (`PathArgument`, docs/architecture.md#paths), where `CommandLine.arguments` would repair it into another.
        Foundation.exit(run(arguments: CommandLineArguments.current(), state: .process()))
    }

    /// One run of odrpack with `arguments` (without the program's name), talking through `state`, and its exit status
    /// (docs/commands.md#exit-codes): what `main` exits with, and what a test runs in-process. Nothing here exits the
    /// process; only Ctrl-C's handler does, installed when `state` is the process's.
    ///
    /// The one place where failures become exit codes and `odrpack: error:` lines: a bad command line is 64 with
    /// ArgumentParser's message and usage behind the prefix, the tool's own failures are 2; under `--json` both also
    /// print the error document on stdout.
    static func run(arguments: [String], state: CommandState) -> Int32 {
        CommandState.$parsing.withValue(state) {
            // Before parsing ends, only the arguments can say whether `--json` was asked for; after, the command does.
            let requested = arguments.prefix(while: { $0 != "--" }).contains("--json")
            // The API key's PEM text given where a path is expected (`upload --private-key "$PEM"`) starts with five
            // dashes, which the parser would refuse as an invalid option, quoting all of it: refused here, quoting
            // none (docs/store.md#credentials).
            if arguments.contains(where: APIKey.isKeyText) {
                return fail(code: "usage", message: APIKey.keyTextAsPath, json: requested, status: 64, state: state)
            }
            if let message = UsageMessage.unknownCommand(
                arguments, names: UsageMessage.commandNames(configuration.subcommands))
            {
                return fail(code: "usage", message: message, json: requested, status: 64, state: state)
            }
            let command: any ParsableCommand
            do {
                command = try parseAsRoot(arguments)
            } catch {
                return finish(error, arguments: arguments, json: requested, state: state)
            }
            guard let odrpackCommand = command as? any ODRPackCommand else {
                // ArgumentParser's own (`odrpack help build`): its run throws the help it shows.
                var command = command
                do { try command.run() } catch {
                    return finish(error, arguments: arguments, json: requested, state: state)
                }
                return 0
            }
            let json = odrpackCommand.shared.json
            do {
                try odrpackCommand.run(state: state)
                return 0
            } catch {
                return finish(error, arguments: arguments, json: json, state: state)
            }
        }
    }

    /// The status for `error`, after printing what it says: help and version (exit 0), a thrown exit code, or a
    /// failure with its message. Sorted by the error's value: `ExitCode`, `ODRPackError`, a `ValidationError` a
    /// command threw while running, then ArgumentParser's own by `exitCode(for:)` (its parse errors are internal
    /// types, whose only public form is `fullMessage(for:)`).
    static func finish(_ error: any Error, arguments: [String], json: Bool, state: CommandState) -> Int32 {
        if let code = error as? ExitCode { return code.rawValue }
        if let failure = error as? ODRPackError {
            // One line, whatever the names in it hold; a failed command's own output keeps its lines.
            var oneLine = true
            if case .commandFailed = failure { oneLine = false }
            if case .usage(let message) = failure {
                return fail(code: "usage", message: message, json: json, status: 64, oneLine: true, state: state)
            }
            return fail(
                code: failure.jsonCode, message: "\(failure)", json: json, status: 2, oneLine: oneLine, state: state)
        }
        if let validation = error as? ValidationError {
            // Thrown by a command's run (the gate's variable read from the run's environment): the command's message.
            return fail(code: "usage", message: validation.message, json: json, status: 64, state: state)
        }
        switch exitCode(for: error) {
        case .success:
            // --help (the command's screen with its examples), --version, --generate-completion-script.
            let text = fullMessage(for: error, columns: helpColumns(state))
            let names = configuration.subcommands.compactMap { $0.configuration.commandName }
            let out =
                text.hasPrefix("OVERVIEW:")
                ? CommandHelp.helpWithExamples(text, command: CommandHelp.commandName(in: arguments, among: names))
                : text + "\n"
            do { try state.streams.output.write(out) } catch { return 2 }
            return 0
        case .validationFailure:
            let (message, text) = usageMessage(for: error, arguments: arguments, columns: helpColumns(state))
            return fail(code: "usage", message: message, humanText: text, json: json, status: 64, state: state)
        default:
            // Not one of the tool's kinds of failure: still exit 2 with a message, never a crash.
            return fail(code: JSONEnvelope.internalCode, message: "\(error)", json: json, status: 2, state: state)
        }
    }
    /// A bad command line in odrpack's voice (`UsageMessage`): the message, and the text with the usage after it. An
    /// unknown option is named first, even when ArgumentParser complained of a missing one (`build --outptu x`).
    static func usageMessage(for error: any Error, arguments: [String], columns: Int?) -> (
        message: String, text: String
    ) {
        let names = UsageMessage.commandNames(configuration.subcommands)
        let name = CommandHelp.commandName(in: arguments, among: names)
        let command = name == "odrpack" ? "odrpack" : "odrpack \(name)"
        let subcommand = configuration.subcommands.first { $0.configuration.commandName == name }
        let known = UsageMessage.longOptions(inHelp: subcommand.map { helpMessage(for: $0) } ?? helpMessage())
        let full = fullMessage(for: error, columns: columns)
        var lines = full.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let message: String
        if let unknown = UsageMessage.unknownOption(arguments, known: known) {
            message = UsageMessage.unknownOptionMessage(unknown, known: known, command: command)
            // The parser's help line was about the option it complained of, not the unknown one.
            lines.removeAll { $0.hasPrefix("Help: ") || $0.hasPrefix("Help:  ") }
        } else {
            var first = Self.message(for: error)
            if first.hasPrefix("Error: ") { first.removeFirst("Error: ".count) }
            message = UsageMessage.rewriteSentence(first, command: command)
        }
        if !lines.isEmpty { lines[0] = message }
        return (message, lines.joined(separator: "\n"))
    }

    /// The width ArgumentParser wraps help and usage to: its own choice (`COLUMNS`, else the terminal's, else 80) for
    /// the process's stdout; for a run in-process, whose stdout is no terminal of the process, `COLUMNS` of the run's
    /// environment, else 80.
    static func helpColumns(_ state: CommandState) -> Int? {
        if state.streams.output is DescriptorOutput { return nil }
        return state.environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 80
    }

    /// `odrpack: error: message` on stderr (`humanText` when the message has more lines, such as the usage), the
    /// error document on stdout under `--json` unless a document is there already, and the status.
    /// - Parameter oneLine: the message is one line: a line break in a name it holds is shown escaped too.
    static func fail(
        code: String, message: String, humanText: String? = nil, json: Bool, status: Int32, oneLine: Bool = false,
        state: CommandState
    ) -> Int32 {
        // An argument's byte that is not UTF-8, quoted by the parser or a command, is shown as `\xNN`.
        let message = CommandLineArguments.shown(message)
        var text = CommandLineArguments.shown(humanText ?? message)
        while text.hasSuffix("\n") { text.removeLast() }
        try? state.streams.error.write("odrpack: error: \(TerminalText.escaped(text, keepingLineBreaks: !oneLine))\n")
        if json && !state.streams.hasPrintedDocument {
            try? state.streams.output.write(JSONEnvelope.error(code: code, message: message).serialized())
        }
        return status
    }
}
