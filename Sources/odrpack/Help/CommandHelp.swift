import ArgumentParser

/// What the help screens teach beyond ArgumentParser's option list (docs/commands.md#conventions): two or three
/// examples at the end of every command's `--help` (also the EXAMPLES of odrpack(1), docs/odrpack.1), each command's
/// declared beside its options (`ODRPackCommand.examples`), and the line Ctrl-C leaves.
enum CommandHelp {
    struct Example {
        var what: String
        var command: String
    }

    /// `odrpack --help`'s own examples; each command's are its `ODRPackCommand.examples`.
    static let rootExamples: [Example] = [
        Example(what: "Start a manifest for the folders of Resources/", command: "odrpack init Resources"),
        Example(what: "See the packs it makes and check them", command: "odrpack plan"),
        Example(what: "Write the packs", command: "odrpack build --output build/odr"),
    ]

    /// The help screen with its examples after the options: `text` is ArgumentParser's help for `name`.
    static func helpWithExamples(_ text: String, command name: String) -> String {
        var out = text
        while out.hasSuffix("\n") { out.removeLast() }
        let examples = examples(for: name)
        guard !examples.isEmpty else { return out + "\n" }
        out += "\n\nEXAMPLES:\n"
        for example in examples { out += "  \(example.what):\n    \(example.command)\n" }
        return out
    }

    /// The examples of the command named `name` (`odrpack` for the root).
    static func examples(for name: String) -> [Example] {
        if name == "odrpack" { return rootExamples }
        let command = ODRPack.configuration.subcommands.first { $0.configuration.commandName == name }
        return (command as? any ODRPackCommand.Type)?.examples ?? []
    }

    /// The command the arguments name (`odrpack build --help`, `odrpack help build`), else the root.
    static func commandName(in arguments: [String], among names: [String]) -> String {
        arguments.first(where: names.contains) ?? "odrpack"
    }

    /// What Ctrl-C prints for `command` (exit 130): what it leaves as it was.
    static func interrupted(_ command: any ODRPackCommand) -> String {
        "odrpack: error: interrupted: \(command.interruptedOutcome)\n"
    }
}
