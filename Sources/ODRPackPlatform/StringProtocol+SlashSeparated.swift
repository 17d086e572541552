// "/"-separated text that is no file-system path (docs/architecture.md#paths): an entry name in a zip or a pack
// folder, a manifest-relative resource path, a URL's path. Such text is split, joined and compared here, by bytes; a path
// on disk is a `FilePath` (FilePath+ODRPack.swift).

extension StringProtocol where UTF8View.SubSequence == Substring.UTF8View {
    /// The parts of a path between its "/" bytes. `split(separator: "/")` splits on Characters, and a "/" followed by a
    /// combining mark (U+0301 after the slash of `a/\u{301}b`) is one Character with it: such a path would not be split
    /// there, so a folder would be missed, or a ".." component would pass a check that looks for one.
    package func slashSeparated(omittingEmptySubsequences: Bool = true) -> [Substring] {
        utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: omittingEmptySubsequences).map {
            Substring($0)
        }
    }
}

extension StringProtocol {
    /// Whether this path lies inside `folder` (or, with `orIsIt`, is `folder`), compared by bytes: String's `hasPrefix`
    /// and `==` compare Characters, so `folder + "/"` is no prefix of a path whose next name starts with a combining
    /// mark, and an NFD spelling equals the NFC one, another folder on Linux. The one test of "is this inside that
    /// folder" for paths of one spelling (both absolute, or both relative to one folder).
    package func isPath(inside folder: some StringProtocol, orIsIt: Bool = false) -> Bool {
        if folder.utf8.elementsEqual("/".utf8) { return utf8.first == UInt8(ascii: "/") && (orIsIt || utf8.count > 1) }
        guard utf8.count > folder.utf8.count else { return orIsIt && utf8.elementsEqual(folder.utf8) }
        return utf8.starts(with: folder.utf8)
            && utf8[utf8.index(utf8.startIndex, offsetBy: folder.utf8.count)] == UInt8(ascii: "/")
    }
}

extension StringProtocol where UTF8View.SubSequence == Substring.UTF8View, UTF8View: BidirectionalCollection {
    /// What comes before and after the last "/" byte, nil without one: found by bytes for the reason
    /// `slashSeparated` gives (`lastIndex(of: "/")` looks for a Character, and misses a "/" before a combining mark).
    @inlinable
    package func splitAtLastSlash() -> (folder: Substring, name: Substring)? {
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        return (Substring(utf8[..<slash]), Substring(utf8[utf8.index(after: slash)...]))
    }
}

extension String {
    /// `self` and `next` joined with one "/": an entry name ("Levels" and "one.json" give "Levels/one.json"), a URL
    /// below its prefix. The one join of "/"-separated text, so that no hand-glued slash reads like a path join.
    package func slashJoined(_ next: some StringProtocol) -> String {
        var joined = self
        joined.reserveCapacity(utf8.count + 1 + next.utf8.count)
        joined += "/"
        joined += next
        return joined
    }
}
