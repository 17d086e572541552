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

extension StringProtocol where UTF8View.SubSequence == Substring.UTF8View {
    /// What comes before and after the last "/" byte, nil without one: found by bytes for the reason
    /// `slashSeparated` gives (`lastIndex(of: "/")` looks for a Character, and misses a "/" before a combining mark).
    package func splitAtLastSlash() -> (folder: Substring, name: Substring)? {
        var found: Index?
        for index in utf8.indices where utf8[index] == UInt8(ascii: "/") { found = index }
        guard let slash = found else { return nil }
        return (Substring(utf8[..<slash]), Substring(utf8[utf8.index(after: slash)...]))
    }
}
