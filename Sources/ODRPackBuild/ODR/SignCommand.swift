import ODRPackPlatform

/// `--sign-command CMD` (docs/build-output.md): run through `/bin/sh -c` once per written pack, with `{}` replaced by the
/// quoted path of the pack's folder form.
struct SignCommand {
    let template: String

    init(_ template: String) { self.template = template }

    /// The shell command for one folder: every `{}` becomes the path in single quotes.
    func command(for folder: String) -> String {
        template.replacingOccurrences(of: "{}", with: ShellCommand.quoted(folder))
    }

    func run(on folder: String) throws {
        try ShellCommand.run(command(for: folder), what: "the sign command", on: "'\(folder)'")
    }
}
