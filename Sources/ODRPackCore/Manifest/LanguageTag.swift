import Foundation

/// A pack's language (docs/background-assets.md#languages): a BCP 47 tag of a language subtag (2-3 letters), an
/// optional script (4 letters) and an optional region (2 letters or 3 digits), as Apple's pack manifest takes it; no
/// variant, extension or private-use subtag. Always written in canonical case (`en-US`, `zh-Hant`), so that one
/// language is one pack id whatever case the manifest or a folder uses.
package enum LanguageTag {
    /// What a folder at a `{language}` place says about its files.
    package enum FolderMeaning: Equatable, Sendable {
        /// Its files have this language (canonical case).
        case language(String)
        /// `Base.lproj`: its files are not localized.
        case notLocalized
        /// Not a language: a `language-invalid` error naming it.
        case invalid
    }

    /// The folder name that holds files of no language, as Xcode's base internationalization names it.
    package static let baseFolder = "Base.lproj"

    /// `text` in canonical case, or nil when it is not a tag of language, script and region subtags.
    package static func canonical(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), isLetters(first) else { return nil }
        var result = first.lowercased()
        var rest = parts.dropFirst()
        if let script = rest.first, script.count == 4, isLetters(script) {
            result += "-" + script.prefix(1).uppercased() + script.dropFirst().lowercased()
            rest = rest.dropFirst()
        }
        if let region = rest.first,
            (region.count == 2 && isLetters(region)) || (region.count == 3 && region.allSatisfy(isDigit))
        {
            result += "-" + region.uppercased()
            rest = rest.dropFirst()
        }
        return rest.isEmpty ? result : nil
    }

    /// What a folder named `name` at a `{language}` place means: `X` or `X.lproj`, with `_` read as `-`
    /// (`pt_BR.lproj` is `pt-BR`); `Base.lproj` holds no language.
    package static func folderMeaning(_ name: String) -> FolderMeaning {
        if name == baseFolder { return .notLocalized }
        var stem = Substring(name)
        if stem.hasSuffix(".lproj") { stem = stem.dropLast(".lproj".count) }
        guard let language = canonical(stem.replacingOccurrences(of: "_", with: "-")) else { return .invalid }
        return .language(language)
    }

    /// The placeholder a `path` or `glob` holds, once, as one whole component.
    package static let placeholder = "{language}"

    private static func isLetters(_ text: Substring) -> Bool {
        text.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
    }

    private static func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }
}
