// The one path type (docs/architecture.md#paths): swift-system's `FilePath`, whose equality and hash are on raw bytes
// (an NFC and an NFD spelling of one name are two paths, as they are two files on Linux). Joining, relative paths,
// inside-checks and comparisons live here, so no caller joins with `+ "/" +`, asks NSString, or checks a string prefix.
@_exported import SystemPackage

extension FilePath {
    /// The path as text for messages and documents. Bytes that are not UTF-8 are repaired (U+FFFD); never use this to
    /// reach the file again: pass the `FilePath` itself.
    package var text: String { string }

    /// `self` joined with a path relative to it, written with `/` ("Levels/one.json"). An empty `relative` is `self`.
    package func joined(_ relative: String) -> FilePath {
        relative.isEmpty ? self : appending(relative)
    }

    /// Whether `self` is `folder` or lies below it, compared component by component on bytes: "/a/bc" is not inside
    /// "/a/b". Both are compared as written (lexically); resolve links first where they matter.
    package func isInside(_ folder: FilePath) -> Bool {
        lexicallyNormalized().starts(with: folder.lexicallyNormalized())
    }

    /// `self` relative to `base` ("Levels/one.json"), or nil when `self` is not inside `base`. `base` itself is "".
    package func relative(to base: FilePath) -> String? {
        var rest = lexicallyNormalized()
        guard rest.removePrefix(base.lexicallyNormalized()) else { return nil }
        return rest.string
    }

    /// The byte key of this path, for dictionaries and sets of paths kept as text.
    package var key: PathKey { PathKey(string) }

    /// The last component as text ("one.json"), or "" for "/" and the empty path.
    package var name: String { lastComponent?.string ?? "" }
}
