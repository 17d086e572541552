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

    /// The one place where failures become exit codes and `odrpack: error:` lines (docs/commands.md#exit-codes):
    /// a bad command line is 64 with ArgumentParser's message and usage behind the prefix, the tool's own failures
    /// are 2; under `--json` both also print the error document on stdout.
    static func main() {
        StandardStream.reportFailedWritesAsErrors()
        // The raw argv as text that maps back to its bytes: a path that is not UTF-8 reaches its command as itself
        // (`PathArgument`, docs/architecture.md#paths), where `CommandLine.arguments` would repair it into another.
        let arguments = CommandLineArguments.current()
        let json = arguments.prefix(while: { $0 != "--" }).contains("--json")
        // The API key's PEM text given where a path is expected (`upload --private-key "$PEM"`) starts with five dashes,
        // which the parser would refuse as an invalid option, quoting all of it: refused here, quoting none
        // (docs/store.md#credentials).
        if arguments.contains(where: APIKey.isKeyText) {
            fail(code: "usage", message: APIKey.keyTextAsPath, json: json, status: 64)
        }
        if let message = UsageMessage.unknownCommand(
            arguments, names: UsageMessage.commandNames(configuration.subcommands))
        {
            fail(code: "usage", message: message, json: json, status: 64)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            finish(error, arguments: arguments, json: json)
        }
        // An `ODRPackCommand`'s `run()` builds its context (and Ctrl-C's message) before its own `run(_:)`.
        do {
            try command.run()
        } catch {
            finish(error, arguments: arguments, json: json)
        }
    }

    /// Exits for `error`: help and version (exit 0), a thrown exit code, or a failure with its message.
    static func finish(_ error: any Error, arguments: [String], json: Bool) -> Never {
        if let code = error as? ExitCode { Foundation.exit(code.rawValue) }
        if let failure = error as? ODRPackError {
            // One line, whatever the names in it hold; a failed command's own output keeps its lines.
            var oneLine = true
            if case .commandFailed = failure { oneLine = false }
            if case .usage(let message) = failure {
                fail(code: "usage", message: message, json: json, status: 64, oneLine: true)
            }
            fail(code: failure.jsonCode, message: "\(failure)", json: json, status: 2, oneLine: oneLine)
        }
        switch exitCode(for: error) {
        case .success:
            // --help (the command's screen with its examples), --version, --generate-completion-script.
            let text = fullMessage(for: error)
            let names = configuration.subcommands.compactMap { $0.configuration.commandName }
            let out =
                text.hasPrefix("OVERVIEW:")
                ? CommandHelp.helpWithExamples(text, command: CommandHelp.commandName(in: arguments, among: names))
                : text + "\n"
            do { try StandardStream.write(out, to: StandardStream.output) } catch { Foundation.exit(2) }
            Foundation.exit(0)
        case .validationFailure:
            let (message, text) = usageMessage(for: error, arguments: arguments)
            fail(code: "usage", message: message, humanText: text, json: json, status: 64)
        default:
            // Not one of the tool's kinds of failure: still exit 2 with a message, never a crash.
            fail(code: JSONEnvelope.internalCode, message: "\(error)", json: json, status: 2)
        }
    }

    /// A bad command line in odrpack's voice (`UsageMessage`): the message, and the text with the usage after it. An
    /// unknown option is named first, even when ArgumentParser complained of a missing one (`build --outptu x`).
    static func usageMessage(for error: any Error, arguments: [String]) -> (message: String, text: String) {
        let names = UsageMessage.commandNames(configuration.subcommands)
        let name = CommandHelp.commandName(in: arguments, among: names)
        let command = name == "odrpack" ? "odrpack" : "odrpack \(name)"
        let subcommand = configuration.subcommands.first { $0.configuration.commandName == name }
        let known = UsageMessage.longOptions(inHelp: subcommand.map { helpMessage(for: $0) } ?? helpMessage())
        let full = fullMessage(for: error)
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

    /// `odrpack: error: message` on stderr (`humanText` when the message has more lines, such as the usage), the
    /// error document on stdout under `--json` unless a document is there already, and the exit.
    /// - Parameter oneLine: the message is one line: a line break in a name it holds is shown escaped too.
    static func fail(
        code: String, message: String, humanText: String? = nil, json: Bool, status: Int32, oneLine: Bool = false
    ) -> Never {
        // An argument's byte that is not UTF-8, quoted by the parser or a command, is shown as `\xNN`.
        let message = CommandLineArguments.shown(message)
        var text = CommandLineArguments.shown(humanText ?? message)
        while text.hasSuffix("\n") { text.removeLast() }
        try? StandardStream.write(
            "odrpack: error: \(TerminalText.escaped(text, keepingLineBreaks: !oneLine))\n", to: StandardStream.error)
        if json && !Console.hasPrintedJSON {
            try? StandardStream.write(
                JSONEnvelope.error(code: code, message: message).serialized(), to: StandardStream.output)
        }
        Foundation.exit(status)
    }
}
