import ArgumentParser
import ODRPackCore

/// What the help screens teach beyond ArgumentParser's option list (docs/commands.md#conventions): two or three
/// examples at the end of every command's `--help` (also the EXAMPLES of odrpack(1), docs/odrpack.1), keyed by command
/// name so a command gets its examples by being named here.
enum CommandHelp {
    struct Example {
        var what: String
        var command: String
    }

    static let examples: [String: [Example]] = [
        "odrpack": [
            Example(what: "Start a manifest for the folders of Resources/", command: "odrpack init Resources"),
            Example(what: "See the packs it makes and check them", command: "odrpack plan"),
            Example(what: "Write the packs", command: "odrpack build --output build/odr"),
        ],
        "init": [
            Example(
                what: "A manifest for the folders of Resources/, in this folder", command: "odrpack init Resources"),
            Example(what: "Start again over an existing odrpack.yml", command: "odrpack init Resources --force"),
        ],
        "plan": [
            Example(what: "The packs, tags and sizes of ./odrpack.yml", command: "odrpack plan"),
            Example(what: "Against the iOS 18 limits", command: "odrpack plan Game/odrpack.yml --profile ios18"),
            Example(what: "The files that stay in the app", command: "odrpack plan --list-untagged"),
        ],
        "validate": [
            Example(what: "A CI gate that fails on warnings too", command: "odrpack validate --warnings-as-errors"),
            Example(what: "Annotate a GitHub Actions run", command: "odrpack validate Game/odrpack.yml --github"),
        ],
        "build": [
            Example(what: "Write every pack into build/odr", command: "odrpack build --output build/odr"),
            Example(
                what: "Pack folders, signed, for an IPA",
                command: "odrpack build -o build/odr --layout folder --sign-command 'codesign -s \"$IDENTITY\" {}'"),
            Example(
                what: "Background Assets packs", command: "odrpack build --format background-assets -o build/ba"),
        ],
        "verify": [
            Example(what: "Re-read every pack of a build", command: "odrpack verify build/odr"),
            Example(what: "The verdict as JSON, for a script", command: "odrpack verify build/odr --json"),
        ],
        "diff": [
            Example(what: "What changed between two builds", command: "odrpack diff v1/build v2/build"),
            Example(
                what: "A pull-request comment; exit 1 when they differ",
                command: "odrpack diff v1/build v2/build --markdown --exit-code"),
            Example(what: "A page to open in a browser", command: "odrpack diff v1/build v2/build --html diff.html"),
        ],
        "thin": [
            Example(what: "Move the packed files out of a built app", command: "odrpack thin MyGame.app build/odr"),
            Example(
                what: "Embed the packs too, for the Simulator", command: "odrpack thin MyGame.app build/odr --embed"),
            Example(
                what: "An engine that keeps its data in a subfolder",
                command: "odrpack thin MyGame.app build/odr --resources-path Data/Raw"),
        ],
        "report": [
            Example(what: "odrpack-report.html for ./odrpack.yml", command: "odrpack report"),
            Example(
                what: "Against the tvOS limits, into build/",
                command: "odrpack report --profile tvos --output build/report.html"),
        ],
        "import-xcode": [
            Example(what: "The tags of an Xcode project", command: "odrpack import-xcode MyGame.xcodeproj"),
            Example(
                what: "One target and configuration, over an existing file",
                command: "odrpack import-xcode . --target MyGame --configuration Debug --force"),
        ],
        "ipa": [
            Example(
                what: "The App Store package of an app and its packs",
                command: "odrpack ipa MyGame.app build/odr --output MyGame.ipa"),
            Example(
                what: "Signing the app and its packs",
                command:
                    "odrpack ipa MyGame.app build/odr --output MyGame.ipa --sign-command 'codesign -f -s \"$IDENTITY\" {}'"
            ),
        ],
        "upload": [
            Example(what: "What would be uploaded", command: "odrpack upload build/ba --since v1/build --dry-run"),
            Example(
                what: "Upload every pack and wait for processing", command: "odrpack upload build/ba --all --wait"),
        ],
    ]

    /// The help screen with its examples after the options: `text` is ArgumentParser's help for `name`.
    static func helpWithExamples(_ text: String, command name: String) -> String {
        var out = text
        while out.hasSuffix("\n") { out.removeLast() }
        guard let examples = examples[name], !examples.isEmpty else { return out + "\n" }
        out += "\n\nEXAMPLES:\n"
        for example in examples { out += "  \(example.what):\n    \(example.command)\n" }
        return out
    }

    /// The command the arguments name (`odrpack build --help`, `odrpack help build`), else the root.
    static func commandName(in arguments: [String], among names: [String]) -> String {
        arguments.first(where: names.contains) ?? "odrpack"
    }

    /// What Ctrl-C leaves as it was, for each command (exit 130).
    static func interrupted(_ command: any ParsableCommand) -> String {
        let what: String
        switch command {
        case let build as Build:
            what =
                "'\(build.output)' holds the previous build, or an unfinished one that the next build into it recovers"
        case let thin as Thin:
            what = "the build folder is unchanged; run thin again to finish '\(thin.app)' (two runs end as one does)"
        case let importer as ImportXcode:
            what = "'\(importer.output)' is as it was, or written whole"
        case is Init:
            what = "'\(ManifestTemplate.fileName)' is as it was, or written whole"
        case let report as Report:
            what = "'\(report.output)' is as it was, or written whole"
        case let diff as Diff where diff.html != nil:
            what = "'\(diff.html ?? "")' is as it was, or written whole"
        default:
            switch type(of: command).configuration.commandName {
            case "ipa": what = "the .ipa is as it was, or written whole; the app and the build are unchanged"
            case "upload": what = "what reached App Store Connect stays there; run upload again to go on from there"
            default: what = "nothing was changed"
            }
        }
        return "odrpack: error: interrupted: \(what)\n"
    }
}
