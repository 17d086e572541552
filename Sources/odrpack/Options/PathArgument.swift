import ArgumentParser
import ODRPackPlatform

/// The one mapping from a parsed path-valued argument to the path a command uses (docs/architecture.md#paths). The
/// parser is given `CommandLineArguments.current()`, whose text maps back to the bytes the command line held, so
/// `build -o $'out\xE9'` reaches the system calls as `out\xE9`, never as `out\u{FFFD}`.
enum PathArgument {
    /// The path `argument` names, bytes and all.
    static func path(_ argument: String) -> FilePath {
        // A command line holds no NUL, so the bytes always make a path.
        FilePath(argument: argument) ?? FilePath(argument)
    }

    /// The path `argument` names, or nil for nil.
    static func path(_ argument: String?) -> FilePath? { argument.map { path($0) } }

    /// `argument` for a library entry point that still takes a path as text (a build folder, a manifest): the same
    /// text when its bytes are UTF-8, which is every such path that text can name again.
    /// - Throws: `ODRPackError.usage` (exit 64) naming the argument escaped, when its bytes are not UTF-8: text would
    ///   name another file (docs/architecture.md#paths).
    static func text(_ argument: String, _ what: String) throws -> String {
        let bytes = CommandLineArguments.bytes(of: argument)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ODRPackError.usage(
                """
                \(what) '\(shown(argument))' is not UTF-8, which this command cannot take yet for it \
                (docs/architecture.md#paths): rename it, or give a path to it through a link whose name is UTF-8
                """
            )
        }
        return text
    }

    /// `text(_:_:)` of an optional argument.
    static func text(_ argument: String?, _ what: String) throws -> String? {
        try argument.map { try text($0, what) }
    }

    /// `argument` for a message: a byte that is not UTF-8 as `\xNN`.
    static func shown(_ argument: String) -> String { CommandLineArguments.shown(argument) }
}
