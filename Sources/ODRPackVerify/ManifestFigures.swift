import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// The build manifest's own figures against its packs (docs/commands.md#verify): `totals`, each tag's `size`, `packs`
/// and `category`, `initialInstallTags`, `prefetchOrder`, each pack's `category` and `priority`, recomputed with
/// the rules planning uses (`PackPlanner`, docs/manifest.md#sizes and #categories-and-priority), and the order the
/// build writes lists in. These are what `diff` reports and `thin` installs: an edited figure must not verify clean.
enum ManifestFigures {
    static func problems(_ manifest: BuildManifest) -> [Diagnostic] {
        let initial = Set(manifest.initialInstallTags)
        let prefetch = Set(manifest.prefetchOrder)
        let (packTexts, categories) = packProblems(manifest, initial: initial, prefetch: prefetch)
        let tagPacks = packsByTag(manifest)
        let texts =
            packTexts + tagProblems(manifest, tagPacks: tagPacks, initial: initial, prefetch: prefetch)
            + listProblems(manifest, tagPacks: tagPacks) + totalProblems(manifest, categories: categories)
        return texts.map { BuildVerifier.problem(.verifyFiguresMismatch, BuildManifest.fileName, $0) }
    }

    /// The packs: sorted by id, each with its tags sorted and its category and priority from them. Also returns
    /// each pack's category as its tags make it.
    private static func packProblems(_ manifest: BuildManifest, initial: Set<String>, prefetch: Set<String>)
        -> (problems: [String], categories: [DownloadCategory])
    {
        var problems: [String] = []
        func add(_ text: String) { problems.append(text) }
        for (previous, pack) in zip(manifest.packs, manifest.packs.dropFirst()) where !(previous.id < pack.id) {
            add("the packs are not sorted by id, each once: '\(pack.id)' comes after '\(previous.id)'")
        }
        var categories: [DownloadCategory] = []
        for pack in manifest.packs {
            if pack.tags.isEmpty || zip(pack.tags, pack.tags.dropFirst()).contains(where: { !($0 < $1) }) {
                add("pack '\(pack.id)' has tags \(pack.tags), not a sorted list of distinct tags")
            }
            let files = pack.files
            if let index = files.indices.dropFirst().first(where: {
                files.comparePath($0 - 1, with: $0, of: files) >= 0
            }) {
                let path = files.path(at: index)
                add("the files of pack '\(pack.id)' are not sorted by path, each once: '\(path)' is out of place")
            }
            let category = PackPlanner.category(tags: pack.tags, initialInstall: initial, prefetch: prefetch)
            categories.append(category)
            if pack.category != category {
                add(
                    "pack '\(pack.id)' has category \(pack.category.rawValue); its tags make it \(category.rawValue)")
            }
            let priority = PackPlanner.priority(
                tags: pack.tags, initialInstall: initial, prefetchOrder: manifest.prefetchOrder)
            if pack.priority != priority {
                add(
                    """
                    pack '\(pack.id)' has priority \(pack.priority.map { "\($0)" } ?? "null"); its tags make it \
                    \(priority.map { "\($0)" } ?? "null")
                    """
                )
            }
        }
        return (problems, categories)
    }

    /// The indices of the packs with each tag.
    private static func packsByTag(_ manifest: BuildManifest) -> [String: [Int]] {
        var tagPacks: [String: [Int]] = [:]
        for (index, pack) in manifest.packs.enumerated() {
            for tag in Set(pack.tags) { tagPacks[tag, default: []].append(index) }
        }
        return tagPacks
    }

    /// The tags: exactly those of the packs, sorted by name, each with its packs, size and category.
    private static func tagProblems(
        _ manifest: BuildManifest, tagPacks: [String: [Int]], initial: Set<String>, prefetch: Set<String>
    ) -> [String] {
        var problems: [String] = []
        func add(_ text: String) { problems.append(text) }
        for (previous, tag) in zip(manifest.tags, manifest.tags.dropFirst()) where !(previous.name < tag.name) {
            add("the tags are not sorted by name, each once: '\(tag.name)' comes after '\(previous.name)'")
        }
        var listed = Set<String>()
        for tag in manifest.tags {
            listed.insert(tag.name)
            guard let members = tagPacks[tag.name] else {
                add("tag '\(tag.name)' is listed, but no pack has it")
                continue
            }
            let ids = members.map { manifest.packs[$0].id }.sorted()
            if tag.packs != ids { add("tag '\(tag.name)' lists the packs \(tag.packs); the packs with it are \(ids)") }
            let size = members.lazy.map { manifest.packs[$0].size }.saturatingSum
            if tag.size != size { add("tag '\(tag.name)' has size \(tag.size); its packs add up to \(size)") }
            let category = PackPlanner.category(tags: [tag.name], initialInstall: initial, prefetch: prefetch)
            if tag.category != category {
                add("tag '\(tag.name)' has category \(tag.category.rawValue); it is \(category.rawValue)")
            }
        }
        for name in tagPacks.keys.sorted() where !listed.contains(name) {
            add("tag '\(name)' of pack '\(manifest.packs[tagPacks[name]![0]].id)' is not in the list of tags")
        }
        return problems
    }

    /// initialInstallTags and prefetchOrder: tags of the packs, each once (planning drops repeats; a tag no
    /// resource carries is an error there, so a build never lists one).
    private static func listProblems(_ manifest: BuildManifest, tagPacks: [String: [Int]]) -> [String] {
        var problems: [String] = []
        for (list, key) in [
            (manifest.initialInstallTags, "initialInstallTags"), (manifest.prefetchOrder, "prefetchOrder"),
        ] {
            var seen = Set<String>()
            for tag in list {
                if !seen.insert(tag).inserted { problems.append("\(key) lists '\(tag)' twice") }
                if tagPacks[tag] == nil { problems.append("\(key) lists '\(tag)', which no pack has") }
            }
        }
        return problems
    }

    /// The totals, from the packs and the categories their tags give them.
    private static func totalProblems(_ manifest: BuildManifest, categories: [DownloadCategory]) -> [String] {
        var problems: [String] = []
        let totals = manifest.totals
        func total(_ name: String, _ recorded: Int64?, _ computed: Int64) {
            if recorded != computed {
                problems.append("totals.\(name) is \(recorded.map(String.init) ?? "null"); the packs make \(computed)")
            }
        }
        total("packs", totals.packs, Int64(manifest.packs.count))
        total("size", totals.size, manifest.packs.lazy.map(\.size).saturatingSum)
        total("archiveSize", totals.archiveSize, manifest.packs.lazy.map { $0.archiveSize ?? 0 }.saturatingSum)
        total(
            "initialInstallSize", totals.initialInstallSize,
            zip(manifest.packs, categories).lazy.filter { $0.1 == .initialInstall }.map(\.0.size).saturatingSum)
        total(
            "initialPrefetchSize", totals.initialPrefetchSize,
            zip(manifest.packs, categories).lazy.filter { $0.1 != .onDemand }.map(\.0.size).saturatingSum)
        return problems
    }
}
