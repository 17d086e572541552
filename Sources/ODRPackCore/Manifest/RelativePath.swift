import ODRPackPlatform

/// Lexical handling of the manifest's relative paths.
package enum RelativePath {
    /// Why a path or glob would reach outside resources-root, or nil when it stays inside.
    static func outsideRootProblem(_ path: String) -> String? {
        if path.utf8.contains(0) { return "holds a NUL character, which no file name can: remove it" }
        if path.hasPrefix("/") { return "is absolute: write it relative to resources-root" }
        // `~` alone or `~/…` reads as the home folder, which nothing expands here; `~backup` is a name like any other.
        if path == "~" || path.hasPrefix("~/") {
            return "starts with '~', which is not expanded to a home folder: write it relative to resources-root"
        }
        if normalize(path) == nil {
            return "climbs out of resources-root with '..': write it relative to resources-root"
        }
        return nil
    }

    /// Whether a path read from a build manifest names something inside its folder as build writes it: relative,
    /// no empty, `.` or `..` components. `thin` removes app files by these paths; a crafted one must not reach out.
    package static func isPlain(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { isPlain(bytes: $0) }
    }

    /// `isPlain` of a path's UTF-8 bytes, as the streaming manifest reader holds them.
    package static func isPlain(bytes path: UnsafeBufferPointer<UInt8>) -> Bool {
        // One pass over the bytes (diff reads 400,000 paths): a component ends at each "/" and at the end.
        var componentLength = 0
        var dots = 0
        for byte in path {
            if byte == 0 { return false }
            if byte == UInt8(ascii: "/") {
                if componentLength == 0 || componentLength == dots && dots <= 2 { return false }
                componentLength = 0
                dots = 0
            } else {
                componentLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return !(componentLength == 0 || componentLength == dots && dots <= 2)
    }

    /// Whether the absolute, resolved `path` is `folder` or lies inside it (a link's target, an app's file).
    package static func absolutePath(_ path: String, isInside folder: String) -> Bool {
        // By bytes: Swift's == and hasPrefix take an NFD spelling for the NFC one, another folder on disk.
        path.isPath(inside: folder, orIsIt: true)
    }

    /// A manifest-relative path below a folder of the same kind (resources-root's "" is the root itself): the one
    /// place such paths are joined. They stay text, compared by bytes (a million of them are held at once); paths on
    /// disk are `FilePath` (docs/architecture.md#paths).
    package static func joined(_ folder: String, _ rest: String) -> String {
        folder.isEmpty ? rest : rest.isEmpty ? folder : folder.slashJoined(rest)
    }

    /// `./a//b/../c/` → `a/c`; the root itself is ""; nil when `..` leaves the root.
    static func normalize(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.slashSeparated(omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if parts.isEmpty { return nil }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }
}
