/// Why an input cannot be used under `--input-root` (docs/commands.md#input-root), as a fact of
/// `ODRPackError.inputRoot`: the folder as given, what the input is and where it leads. Each is exit 2 and
/// `unusable-input`, the code these failures had as sentences.
package enum InputRootFailure: Sendable, Equatable, CustomStringConvertible {
    /// `--input-root` (as given) names no folder.
    case notAFolder(String)
    /// An input leads outside the folder once its links are resolved: what it is ("the app 'Game.app'"), where it
    /// leads, the folder as given, and how to bring it inside, both as the caller gave them.
    case leadsOutside(what: String, leads: FilePath, root: String, fix: String)
    /// A symbolic link under an input folder (what the folder is, "the app") is absolute (`leads` nil) or leads
    /// outside it: its path in the folder and its target as read.
    case linkLeadsOutside(what: String, link: String, target: String, leads: FilePath?, root: String)

    package var description: String {
        switch self {
        case .notAFolder(let given): return "--input-root '\(given)' is not a folder: name the folder the inputs are in"
        case .leadsOutside(let what, let leads, let root, let fix):
            return """
                \(what) leads to '\(leads.text)', outside --input-root '\(root)': odrpack reads no file outside it \
                (the inputs a build system declared); \(fix)
                """
        case .linkLeadsOutside(let what, let link, let target, let leads, let root):
            return """
                \(what) holds the symbolic link '\(link)' to '\(target)', which \
                \(leads.map { "leads outside it, to '\($0.text)'" } ?? "is absolute"): under \
                --input-root '\(root)' odrpack reads only the inputs a build system declared; replace the link \
                with the file, or with a relative link to a file inside \(what)
                """
        }
    }
}
