/// Tag mistakes that cost a pack (docs/diagnostics.md#tag-similar): a misspelt tag silently makes a pack of its own.
/// With a `tags:` list the manifest says which tags exist, and a tag outside it is an error (`tag-undeclared`), a
/// declared tag nothing uses a warning (`tag-unused`); without one, a tag only one entry gives that is a near twin of
/// another entry's tag is the warning `tag-similar`. Pure, on the manifest alone.
struct TagSpellingCheck {
    let manifest: TagManifest

    func check() -> [Diagnostic] {
        if let declared = manifest.declaredTags { return undeclared(declared) + unused(declared) }
        return similar()
    }

    /// Declared tags times distinct undeclared ones up to which the closest declared tag is looked for among all of
    /// them; past it, among the near twins `TwinIndex` finds (docs/diagnostics.md#tag-undeclared: n log n).
    static let fullSearchLimit = 200_000

    /// Every use of a tag the `tags:` list does not hold, once per place, with the closest declared tag (looked for
    /// once per distinct tag).
    func undeclared(_ declared: [TagManifest.Located<String>]) -> [Diagnostic] {
        let names = declared.map(\.value)
        let known = Set(names)
        let distinct = Set(manifest.entries.flatMap { $0.tags.map(\.value) }).subtracting(known)
        let index =
            names.count.multipliedReportingOverflow(by: distinct.count).partialValue > Self.fullSearchLimit
                || names.count > Self.fullSearchLimit
            ? TwinIndex(Array(known).sorted()) : nil
        var hints: [String: String] = [:]
        var diagnostics: [Diagnostic] = []
        for entry in manifest.entries {
            for tag in entry.tags where !known.contains(tag.value) {
                if hints[tag.value] == nil {
                    let pool = index?.candidates(for: tag.value) ?? names
                    hints[tag.value] =
                        Suggestion.closest(to: tag.value, in: pool).map { "did you mean '\($0)'? " } ?? ""
                }
                let hint = hints[tag.value] ?? ""
                diagnostics.append(
                    .error(
                        .tagUndeclared,
                        """
                        tag '\(tag.value)' is not in the manifest's 'tags' list: \(hint)fix the tag, or add it to \
                        'tags'
                        """,
                        at: tag.location, subject: tag.value))
            }
        }
        return diagnostics
    }

    /// Every declared tag no entry gives (initial-install and prefetch-order only name tags, they give none).
    func unused(_ declared: [TagManifest.Located<String>]) -> [Diagnostic] {
        let given = Set(manifest.entries.flatMap { $0.tags.map(\.value) }).union(manifest.unresolvedEntryTags)
        var reported = Set<String>()
        return declared.filter { !given.contains($0.value) && reported.insert($0.value).inserted }.map {
            .warning(
                .tagUnused,
                "tag '\($0.value)' is declared in 'tags' but no entry gives it: tag some files with it, or remove it",
                at: $0.location, subject: $0.value)
        }
    }

    /// A tag given by exactly one entry and named neither by initial-install nor by prefetch-order, whose name is a
    /// near twin of a tag another entry gives: one or two edits, none of them on a digit (`world1` and `world2` are
    /// two levels, not a typo), or letter case only. When both tags are given by one entry each, only the later one
    /// is reported: the two would otherwise each call the other a misspelling.
    func similar() -> [Diagnostic] {
        var entriesGiving: [String: Set<Int>] = [:]
        var firstUse: [String: (entry: Int, location: SourceLocation?)] = [:]
        for (index, entry) in manifest.entries.enumerated() {
            for tag in entry.tags {
                entriesGiving[tag.value, default: []].insert(index)
                if firstUse[tag.value] == nil { firstUse[tag.value] = (index, tag.location) }
            }
        }
        let named = Set((manifest.initialInstall + manifest.prefetchOrder).map(\.value))
        let tags = entriesGiving.keys.sorted()
        let index = TwinIndex(tags)
        var diagnostics: [Diagnostic] = []
        for tag in tags where entriesGiving[tag]?.count == 1 && !named.contains(tag) {
            let entry = entriesGiving[tag]!.first!
            let twins = index.candidates(for: tag).filter { other in
                guard other != tag, let givers = entriesGiving[other], givers.contains(where: { $0 != entry }),
                    Self.areTwins(tag, other)
                else { return false }
                // Both given once and named by no list: the earlier one stands, the later is reported.
                let otherIsLone = givers.count == 1 && !named.contains(other)
                return !otherIsLone || firstUse[other]!.entry < entry
            }
            guard let twin = twins.min(by: { Suggestion.editDistance(tag, $0) < Suggestion.editDistance(tag, $1) })
            else { continue }
            diagnostics.append(
                .warning(
                    .tagSimilar,
                    "'\(tag)' is given only here: did you mean '\(twin)'? a misspelt tag makes its own pack",
                    at: firstUse[tag]?.location, subject: tag))
        }
        return diagnostics.sorted {
            ($0.location?.line ?? 0, $0.location?.column ?? 0) < ($1.location?.line ?? 0, $1.location?.column ?? 0)
        }
    }

    /// Letter case only, or one or two edits that leave every digit where it was (the digits, in order, are equal),
    /// with at least three characters of the shorter tag per edit: `a` and `b`, or `ui` and `fx`, are two names, not
    /// a typo; and two letters added (or dropped) are a word of its own (`composed`, `decomposed`), where a misspelling
    /// swaps, replaces or drops one. One tag in two languages (`areLanguageVariants`) is never a twin.
    static func areTwins(_ a: String, _ b: String) -> Bool {
        if areLanguageVariants(a, b) { return false }
        if a.lowercased() == b.lowercased() { return true }
        guard a.filter(\.isNumber) == b.filter(\.isNumber) else { return false }
        // Insertions, deletions and substitutions of letters only: with equal digit sequences, an alignment that keeps
        // the digits exists within the distance whenever the non-digit runs between them are that close.
        guard abs(a.count - b.count) <= 2 else { return false }
        if abs(a.count - b.count) == 2 { return false }
        let distance = Self.typoDistance(a, b)
        return distance >= 1 && distance <= 2 && distance * 3 <= min(a.count, b.count)
            && Self.runsDistance(a, b) == distance
    }

    /// `P-L1` and `P-L2`: one prefix, a separator (`-` or `_`), and two different languages, each a BCP 47 tag as
    /// docs/manifest.md#declared-tags reads it (`voice-fr`, `voice-en`, `voice_pt-BR`): one tag per language.
    static func areLanguageVariants(_ a: String, _ b: String) -> Bool {
        let aSplits = languageSplits(a)
        guard !aSplits.isEmpty else { return false }
        let bSplits = languageSplits(b)
        return aSplits.contains { x in bSplits.contains { $0.prefix == x.prefix && $0.language != x.language } }
    }

    /// Every way `tag` reads as a non-empty prefix, a separator and a language (lowercased, subtags joined by `-`).
    private static func languageSplits(_ tag: String) -> [(prefix: Substring, language: String)] {
        tag.indices.compactMap { index in
            guard tag[index] == "-" || tag[index] == "_", index != tag.startIndex,
                let language = languageTag(tag[tag.index(after: index)...])
            else { return nil }
            return (tag[..<index], language)
        }
    }

    /// A language (2-3 letters), an optional script (4 letters) and an optional region (2 letters or 3 digits),
    /// separated by `-` or `_`, lowercased and joined by `-`; nil for anything else.
    private static func languageTag(_ text: Substring) -> String? {
        let parts = text.split(omittingEmptySubsequences: false) { $0 == "-" || $0 == "_" }
        func letters(_ part: Substring, _ counts: ClosedRange<Int>) -> Bool {
            counts.contains(part.count) && part.allSatisfy { $0.isASCII && $0.isLetter }
        }
        guard parts.count <= 3, letters(parts[0], 2...3) else { return nil }
        var next = 1
        if next < parts.count, letters(parts[next], 4...4) { next += 1 }
        if next < parts.count,
            letters(parts[next], 2...2)
                || (parts[next].count == 3 && parts[next].allSatisfy { $0.isASCII && $0.isNumber })
        {
            next += 1
        }
        guard next == parts.count else { return nil }
        return parts.joined(separator: "-").lowercased()
    }

    /// The edit distance where two neighbouring letters swapped are one edit, as a typist makes it (`intor` for
    /// `intro`, `levle` for `level`), not two: the optimal string alignment distance.
    static func typoDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }

    /// The edit distance summed over the runs between digits: equal to the whole distance only when no optimal edit
    /// moves across a digit.
    private static func runsDistance(_ a: String, _ b: String) -> Int {
        let aRuns = a.split(omittingEmptySubsequences: false, whereSeparator: \.isNumber)
        let bRuns = b.split(omittingEmptySubsequences: false, whereSeparator: \.isNumber)
        guard aRuns.count == bRuns.count else { return Int.max }
        return zip(aRuns, bRuns).map { Self.typoDistance(String($0), String($1)) }.reduce(0, +)
    }

    /// The tags that can be twins of a tag, found without comparing every pair (docs/diagnostics.md#tag-similar: the
    /// check stays n log n in the tags). Case twins share their lowercased form. A twin by one or two edits has the
    /// same digits and a length at most one apart, and of three disjoint regions of its name (the first, middle and
    /// last third) at least one survives the two edits: the first third and the last third unmoved, the middle shifted
    /// by at most two. So each tag is filed under its own regions, and looked up by the regions another tag would
    /// have at each length one apart. Candidates come back sorted; `areTwins` still decides.
    struct TwinIndex {
        private var byLowercase: [String: [Int]] = [:]
        private var byRegion: [String: [Int]] = [:]
        private let tags: [String]
        /// A region shared by more tags than this says nothing about any of them (4,000 tags that share their first
        /// third): such a bucket is not searched, so the candidates of a tag stay few and the check n log n. A twin
        /// still shares another region with the tag, whose bucket is small unless the tags are near copies all along.
        static let maximumBucket = 64

        init(_ tags: [String]) {
            self.tags = tags
            for (number, tag) in tags.enumerated() {
                byLowercase[tag.lowercased(), default: []].append(number)
                let characters = Array(tag)
                let third = characters.count / 3
                guard third > 0 else { continue }
                let digits = String(tag.filter(\.isNumber))
                for (kind, start) in [("p", 0), ("m", third), ("s", characters.count - third)] {
                    let key = Self.key(digits, characters.count, kind, characters[start..<(start + third)])
                    byRegion[key, default: []].append(number)
                }
            }
        }

        private static func key(_ digits: String, _ length: Int, _ kind: String, _ region: ArraySlice<Character>)
            -> String
        {
            "\(digits)\u{0}\(length)\u{0}\(kind)\u{0}" + String(region)
        }

        func candidates(for tag: String) -> [String] {
            var found = Set((byLowercase[tag.lowercased()] ?? []).prefix(Self.maximumBucket))
            let characters = Array(tag)
            let digits = String(tag.filter(\.isNumber))
            for length in (characters.count - 1)...(characters.count + 1) {
                let third = length / 3
                guard third > 0, third <= characters.count else { continue }
                var keys = [
                    Self.key(digits, length, "p", characters[0..<third]),
                    Self.key(digits, length, "s", characters[(characters.count - third)...]),
                ]
                for shift in -2...2 where third + shift >= 0 && 2 * third + shift <= characters.count {
                    keys.append(Self.key(digits, length, "m", characters[(third + shift)..<(2 * third + shift)]))
                }
                for key in keys {
                    if let bucket = byRegion[key], bucket.count <= Self.maximumBucket { found.formUnion(bucket) }
                }
            }
            return found.sorted().map { tags[$0] }
        }
    }
}
