import ArgumentParser
import ODRPackCore

/// A bad command line in odrpack's voice (docs/commands.md#scripts): ArgumentParser's sentences rewritten as
/// `odrpack: error: <lowercase what>: <the fix>`, the closest subcommand or option named. Used by `ODRPack.finish`,
/// the one place errors print.
enum UsageMessage {
    /// The subcommand names and `help`, for the did-you-mean of a misspelt command.
    static func commandNames(_ subcommands: [any ParsableCommand.Type]) -> [String] {
        subcommands.compactMap { $0.configuration.commandName }
    }

    /// `odrpack bulid`: the first argument names no command. Nil when it is an option or a command.
    static func unknownCommand(_ arguments: [String], names: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !names.contains(first), first != "help" else {
            return nil
        }
        let suggestion = Suggestion.closest(to: first, in: names).map { ": did you mean '\($0)'?" }
        return "no such command '\(first)'"
            + (suggestion ?? ": the commands are \(names.joined(separator: ", ")) (see `odrpack --help`)")
    }

    /// The long options a command's help lists (`--output`), for the did-you-mean of a misspelt one.
    static func longOptions(inHelp help: String) -> [String] {
        var names: [String] = []
        var index = help.startIndex
        while let range = help.range(of: "--", range: index..<help.endIndex) {
            var end = range.upperBound
            while end < help.endIndex, help[end].isLetter || help[end].isNumber || help[end] == "-" {
                end = help.index(after: end)
            }
            let name = String(help[range.lowerBound..<end])
            if name.count > 2 && !names.contains(name) { names.append(name) }
            index = end
        }
        return names
    }

    /// The first `--option` of `arguments` the command does not know, before `--`: named even when the parser
    /// complains of something else first (a required option missing, `build --outptu x`).
    static func unknownOption(_ arguments: [String], known: [String]) -> String? {
        guard !known.isEmpty else { return nil }
        for argument in arguments {
            if argument == "--" { break }
            guard argument.hasPrefix("--"), argument.count > 2 else { continue }
            let name = String(argument.prefix(while: { $0 != "=" }))
            if !known.contains(name) { return name }
        }
        return nil
    }

    /// `unknown option '--outptu': did you mean '--output'?`
    static func unknownOptionMessage(_ name: String, known: [String], command: String) -> String {
        let suggestion = Suggestion.closest(to: name, in: known).map { ": did you mean '\($0)'?" }
        return "unknown option '\(name)'" + (suggestion ?? ": see `\(command) --help` for the options")
    }

    /// ArgumentParser's first line in odrpack's voice: lowercase, then the fix. Lines after it (the usage) are kept.
    static func rewrite(_ text: String, command: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard var first = lines.first else { return text }
        if first.hasPrefix("Error: ") { first.removeFirst("Error: ".count) }
        lines[0] = rewriteSentence(first, command: command)
        return lines.joined(separator: "\n")
    }

    static func rewriteSentence(_ sentence: String, command: String) -> String {
        let help = "see `\(command) --help`"
        if let name = quoted(sentence, after: "Missing expected argument ") {
            return name.hasPrefix("-")
                ? "missing \(name): add it (\(help))" : "missing \(name): give it after `\(command)` (\(help))"
        }
        if let name = quoted(sentence, after: "Missing value for ") {
            return
                "\(name) needs a value: write \(name.split(separator: " ")[0]) VALUE or \(name.split(separator: " ")[0])=VALUE"
        }
        if let name = quoted(sentence, after: "Unexpected argument ") {
            return "unexpected argument '\(name)': \(help) for what \(command) takes"
        }
        if let name = quoted(sentence, after: "Unknown option ") {
            return "unknown option '\(name)': \(help) for the options"
        }
        if sentence.hasPrefix("The value '"), let range = sentence.range(of: "' is invalid for '") {
            let value = sentence[sentence.index(sentence.startIndex, offsetBy: 11)..<range.lowerBound]
            var rest = sentence[range.upperBound...]
            if let end = rest.firstIndex(of: "'") { rest = rest[..<end] }
            var reason = ""
            if let colon = sentence.range(of: "': ", range: range.upperBound..<sentence.endIndex) {
                reason = String(sentence[colon.upperBound...])
                if let first = reason.first { reason = first.lowercased() + reason.dropFirst() }
            }
            return "'\(value)' is not a valid value for \(rest)"
                + (reason.isEmpty ? ": \(help) for the values it takes" : ": \(reason)")
        }
        guard let first = sentence.first, first.isUppercase,
            sentence.dropFirst().first.map({ !$0.isUppercase }) ?? true
        else { return sentence }
        return first.lowercased() + sentence.dropFirst()
    }

    /// `Unknown option '--x'` → `--x`
    private static func quoted(_ sentence: String, after prefix: String) -> String? {
        guard sentence.hasPrefix(prefix + "'"), sentence.hasSuffix("'") || sentence.contains("' ") else { return nil }
        let body = sentence.dropFirst(prefix.count + 1)
        guard let end = body.firstIndex(of: "'") else { return nil }
        return String(body[..<end])
    }
}
