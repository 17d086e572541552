/// Groups resolved resources into packs by tag set and computes sizes, categories and priorities.
/// Pure: the same resolution always gives the same plan.
package struct PackPlanner {
    let manifest: TagManifest
    let limits: LimitProfile
    let format: PackFormat
    /// The profile that decides the default Background Assets platforms: the command line's, else the manifest's.
    let platformProfile: String
    /// The platform of an ODR plan (docs/commands.md#platform): files of entries for other platforms only are left
    /// out. Ignored for Background Assets, whose packs are per platform set.
    let platform: ApplePlatform

    init(
        manifest: TagManifest, limits: LimitProfile, format: PackFormat, platformProfile: String? = nil,
        platform: ApplePlatform? = nil
    ) {
        self.manifest = manifest
        self.limits = limits
        self.format = format
        self.platformProfile = platformProfile ?? manifest.profile.value
        self.platform = platform ?? ApplePlatform.odrDefault(profile: platformProfile ?? manifest.profile.value)
    }

    /// The plan in three steps: the packs (one per distinct tag set), the tags that sum them, then the totals the
    /// limits are checked against. Every sum that does not fit in Int64 is noted, in this order, for `size-overflow`.
    func plan(_ resolution: Resolution) -> PackPlan {
        let initial = Self.uniqued(manifest.initialInstall.map(\.value))
        let prefetch = Self.uniqued(manifest.prefetchOrder.map(\.value))
        var sums = CheckedSums()
        var backgroundAssets = manifest.backgroundAssets
        backgroundAssets.platforms = backgroundAssets.platforms(profile: platformProfile)
        let packs = self.packs(
            resolution.resources, initial: initial, prefetch: prefetch, allPlatforms: backgroundAssets.platforms ?? [],
            sums: &sums)
        let tags = Self.tagSummaries(packs, initial: Set(initial), prefetch: Set(prefetch), sums: &sums)
        let totalSize = sums(packs.lazy.map(\.size), "all packs together")
        let initialInstallSize = sums(
            packs.lazy.filter { $0.category == .initialInstall }.map(\.size), "the initial-install packs")
        let initialPrefetchSize = sums(
            packs.lazy.filter { $0.category != .onDemand }.map(\.size), "the initial-install and prefetch packs")
        if resolution.appBundleSizeOverflows { sums.overflows.append(("the files that stay in the app", nil)) }
        var plan = PackPlan(
            bundleID: manifest.bundleID, profileName: limits.name, limits: limits,
            initialInstallTags: initial, prefetchOrder: prefetch,
            appBundleFiles: resolution.appBundleFiles, appBundleSize: resolution.appBundleSize,
            packs: packs, tags: tags,
            totalSize: totalSize, initialInstallSize: initialInstallSize, initialPrefetchSize: initialPrefetchSize,
            format: format, backgroundAssets: backgroundAssets)
        plan.overflowingSums = sums.overflows
        plan.countsAppBundle = resolution.countsAppBundle
        if format == .odr {
            plan.platform = platform.rawValue
            plan.otherPlatformFiles =
                resolution.resources.lazy.filter {
                    !$0.tags.isEmpty && !$0.labels.isFor(self.platform.rawValue)
                }
                .count
        }
        plan.manifestLanguages = Set(resolution.resources.lazy.compactMap(\.language)).sorted()
        return plan
    }

    /// Sums held at Int64.max when they do not fit, each such sum noted (what it adds up, and the pack or tag it
    /// belongs to) in the order the sums were taken: the plan's `overflowingSums`, reported as `size-overflow`.
    struct CheckedSums {
        var overflows: [(what: String, subject: String?)] = []

        mutating func callAsFunction(
            _ sizes: some Sequence<Int64>, _ what: @autoclosure () -> String, subject: String? = nil
        ) -> Int64 {
            if let total = sizes.checkedSum { return total }
            overflows.append((what(), subject))
            return Int64.max
        }
    }

    /// One pack per distinct tag set of the resources (for Background Assets, per distinct tag set, language and
    /// platform set: docs/background-assets.md#languages), sorted by id; each holds the positions of its files (not
    /// copies) and their checked sum. An ODR plan takes only the files for its platform.
    func packs(
        _ resources: [ResolvedResource], initial: [String], prefetch: [String], allPlatforms: [String] = [],
        sums: inout CheckedSums
    ) -> [AssetPack] {
        let initialSet = Set(initial)
        let prefetchSet = Set(prefetch)
        let perPlatform = format == .backgroundAssets
        let wanted = platform.rawValue
        let groups = Self.positionsByPack(resources) { labels -> PackKey? in
            guard perPlatform else { return labels.isFor(wanted) ? PackKey(tags: labels.tags) : nil }
            // A file's platforms among the manifest's (an entry's are a subset of them; a profile given on the
            // command line may change the default list): every platform is written as none.
            var platforms = labels.platforms.map { $0.filter(allPlatforms.contains) }
            if platforms?.count == Set(allPlatforms).count { platforms = nil }
            if platforms?.isEmpty == true { return nil }
            return PackKey(tags: labels.tags, language: labels.language, platforms: platforms)
        }
        var packs: [AssetPack] = groups.map { key, positions in
            let tags = key.tags
            let files = PackFiles(resources, positions: positions)
            let category = Self.category(tags: tags, initialInstall: initialSet, prefetch: prefetchSet)
            var pack = AssetPack(
                id: PackIdentity.id(bundleID: manifest.bundleID, tags: tags),
                fileName: PackIdentity.fileName(bundleID: manifest.bundleID, tags: tags),
                tags: tags, category: category,
                priority: Self.priority(tags: tags, initialInstall: initialSet, prefetchOrder: prefetch),
                size: files.lazy.map(\.size).saturatingSum,
                files: files,
                firstEntry: files.lazy.compactMap(\.firstEntry).min())
            if perPlatform {
                let platforms = key.platforms ?? ApplePlatform.ordered(allPlatforms)
                pack.language = key.language
                pack.platforms = platforms
                // A pack for every platform without a language keeps its tag set's ids, so existing builds keep their
                // versions; every other pack's ids gain the same suffix, so the build manifest's ids stay unique.
                pack.idSuffix = BackgroundAssetsIdentity.suffix(
                    platforms: platforms, allPlatforms: allPlatforms, language: key.language)
                pack.id += pack.idSuffix
            }
            return pack
        }
        packs.sort { $0.id < $1.id }
        for index in packs.indices {
            packs[index].size = sums(
                packs[index].files.lazy.map(\.size), "the files of pack '\(packs[index].shortName)'",
                subject: packs[index].id)
        }
        return packs
    }

    /// Each tag, sorted by name, with the (sorted) ids of the packs that carry it and their checked sum.
    static func tagSummaries(
        _ packs: [AssetPack], initial: Set<String>, prefetch: Set<String>, sums: inout CheckedSums
    ) -> [TagSummary] {
        var tagPacks: [String: [Int]] = [:]
        for (index, pack) in packs.enumerated() {
            for tag in pack.tags { tagPacks[tag, default: []].append(index) }
        }
        return tagPacks.keys.sorted().map { name -> TagSummary in
            let members = tagPacks[name]!
            return TagSummary(
                name: name,
                category: category(tags: [name], initialInstall: initial, prefetch: prefetch),
                size: sums(members.lazy.map { packs[$0].size }, "the packs of tag '\(name)'", subject: name),
                packs: members.map { packs[$0].id }.sorted())
        }
    }

    /// What makes two files one pack: their tag set, and for Background Assets their language and platforms (nil: every
    /// platform).
    struct PackKey: Hashable {
        var tags: [String]
        var language: String? = nil
        var platforms: [String]? = nil
    }

    /// The positions of the tagged resources, grouped by tag set, each group in the resources' order and allocated at
    /// its exact size: the packs hold these, not copies of the resources.
    static func positionsByTagSet(_ resources: [ResolvedResource]) -> [(tags: [String], positions: [UInt32])] {
        positionsByPack(resources) { PackKey(tags: $0.tags) }.map { ($0.key.tags, $0.positions) }
    }

    /// The positions of the tagged resources, grouped by `key` of their labels (nil leaves a file out), each group in
    /// the resources' order and allocated at its exact size.
    static func positionsByPack(_ resources: [ResolvedResource], key: (ResourceLabels) -> PackKey?) -> [(
        key: PackKey, positions: [UInt32]
    )] {
        var groups: [PackKey: Int] = [:]
        var keys: [PackKey] = []
        var counts: [Int] = []
        // Files with the same labels share one object (and mostly come in runs), so comparing with the last one is cheap.
        var last: (labels: ResourceLabels, group: Int?)?
        func group(of labels: ResourceLabels) -> Int? {
            if let last, last.labels === labels { return last.group }
            var group: Int?
            if !labels.tags.isEmpty, let packKey = key(labels) {
                group = groups[packKey] ?? keys.count
                if group == keys.count {
                    groups[packKey] = group
                    keys.append(packKey)
                    counts.append(0)
                }
            }
            last = (labels, group)
            return group
        }
        for resource in resources {
            if let group = group(of: resource.labels) { counts[group] += 1 }
        }
        var positions: [[UInt32]] = counts.map { count in
            var positions: [UInt32] = []
            positions.reserveCapacity(count)
            return positions
        }
        last = nil
        for (position, resource) in resources.enumerated() {
            if let group = group(of: resource.labels) { positions[group].append(UInt32(position)) }
        }
        return Array(zip(keys, positions))
    }

    /// A pack's (or, for one tag, a tag's) category: initial-install if any tag is, else prefetch if any is in
    /// prefetch-order, else on-demand (docs/manifest.md#categories-and-priority). `verify` recomputes with it.
    package static func category(tags: [String], initialInstall: Set<String>, prefetch: Set<String>)
        -> DownloadCategory
    {
        tags.contains(where: initialInstall.contains)
            ? .initialInstall : tags.contains(where: prefetch.contains) ? .prefetch : .onDemand
    }

    /// Xcode's rule: initial-install gives 1.0; prefetch index i of n gives 0.5 when n = 1, else
    /// ((n-1-i)/(n-1))*0.9 + 0.05; the highest of a pack's tags wins; no such tag, no priority.
    package static func priority(tags: [String], initialInstall: Set<String>, prefetchOrder: [String]) -> Double? {
        var best: Double?
        let n = prefetchOrder.count
        for tag in tags {
            var value: Double?
            if initialInstall.contains(tag) {
                value = 1.0
            } else if let i = prefetchOrder.firstIndex(of: tag) {
                value = n == 1 ? 0.5 : (Double(n - 1 - i) / Double(n - 1)) * 0.9 + 0.05
            }
            if let value, value > (best ?? -1) { best = value }
        }
        return best
    }

    static func uniqued(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
