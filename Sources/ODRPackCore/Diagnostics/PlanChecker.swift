import Foundation
import ODRPackPlatform

/// Checks a plan against the manifest and the store's limits (docs/manifest.md#limits and docs/diagnostics.md). Pure.
struct PlanChecker {
    let manifest: TagManifest
    let plan: PackPlan
    /// Where each tag is first given to a file in the manifest, found in one pass over the entries: a lookup per
    /// tag, so the checks stay n log n in entries and tags (docs/build-output.md, Bounded).
    private let tagLocations: [String: SourceLocation]
    /// Every tag an entry gives, whether or not the entry matched a file.
    private let declaredTags: Set<String>

    init(manifest: TagManifest, plan: PackPlan) {
        self.manifest = manifest
        self.plan = plan
        var locations: [String: SourceLocation] = [:]
        var declared = Set<String>()
        for entry in manifest.entries {
            for tag in entry.tags where declared.insert(tag.value).inserted {
                if let location = tag.location { locations[tag.value] = location }
            }
        }
        tagLocations = locations
        declaredTags = declared.union(manifest.unresolvedEntryTags)
    }

    func check() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        diagnostics += unknownTags()
        diagnostics += TagSpellingCheck(manifest: manifest).check()
        diagnostics += packContents()
        diagnostics += overflows()
        diagnostics += sizes()
        return diagnostics
    }

    var limits: LimitProfile { plan.limits }

    func entryLocation(_ index: Int?) -> SourceLocation? {
        guard let index else { return nil }
        return manifest.entries[index].selectorLocation
    }

    /// Where a tag is first given to a file in the manifest.
    func tagLocation(_ tag: String) -> SourceLocation? { tagLocations[tag] }

    /// `tag-unknown` for a tag that no entry gives: a tag whose entries matched nothing (or named paths that do not
    /// exist) has their diagnostics already, and is not reported twice (docs/diagnostics.md).
    func unknownTags() -> [Diagnostic] {
        let carried = Set(plan.tags.map(\.name))
        var diagnostics: [Diagnostic] = []
        for (list, key) in [(manifest.initialInstall, "initial-install"), (manifest.prefetchOrder, "prefetch-order")] {
            var reported = Set<String>()
            for tag in list
            where !tag.value.isEmpty && !carried.contains(tag.value) && !declaredTags.contains(tag.value)
                && reported.insert(tag.value).inserted
            {
                let hint =
                    Suggestion.closest(to: tag.value, in: Array(carried)).map { " (did you mean '\($0)'?)" } ?? ""
                diagnostics.append(
                    .error(
                        .tagUnknown,
                        """
                        '\(key)' names tag '\(tag.value)', which no resource carries\(hint): tag some files with it or \
                        remove it
                        """,
                        at: tag.location, subject: tag.value))
            }
        }
        return diagnostics
    }

    func packContents() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for pack in plan.packs {
            diagnostics += collisions(in: pack)
            diagnostics += uncompiled(in: pack)
            if let reserved = pack.files.first(where: { $0.pathIs("Info.plist") }) {
                diagnostics.append(
                    .error(
                        .pathReserved,
                        """
                        'Info.plist' at the top of resources-root would replace pack '\(pack.shortName)''s own \
                        Info.plist: move or rename it
                        """,
                        at: entryLocation(reserved.firstEntry), subject: reserved.path))
            }
            if let reserved = pack.files.first(where: { $0.pathIs("META-INF/", prefix: true) }) {
                diagnostics.append(
                    .error(
                        .pathReserved,
                        """
                        '\(reserved.path)' is inside 'META-INF', which pack archives keep for their own metadata: move \
                        or rename the folder
                        """,
                        at: entryLocation(reserved.firstEntry), subject: reserved.path))
            }
        }
        return diagnostics
    }

    /// Destinations Apple's file systems take for one file (docs/manifest.md#destinations): equal but for letter case (`case-collision`),
    /// or equal after NFC normalization but not in bytes (`normalization-collision`). Paths are compared as bytes.
    func collisions(in pack: AssetPack) -> [Diagnostic] {
        // A cheap case- and normalization-insensitive hash finds candidates; only they are folded and compared.
        var seen = Set<UInt64>()
        var candidates = Set<UInt64>()
        for file in pack.files {
            let hash = file.withPath { Self.caseInsensitiveHash($0) }
            if !seen.insert(hash).inserted { candidates.insert(hash) }
        }
        guard !candidates.isEmpty else { return [] }
        var groups: [[UInt8]: [String]] = [:]
        for file in pack.files where candidates.contains(file.withPath { Self.caseInsensitiveHash($0) }) {
            groups[Array(Self.caseFolded(Self.normalized(file.path)).utf8), default: []].append(file.path)
        }
        var diagnostics: [Diagnostic] = []
        // At the entry that tagged the file named first: the one whose `allow` covers it.
        var entries: [String: Int] = [:]
        for file in pack.files where candidates.contains(file.withPath { Self.caseInsensitiveHash($0) }) {
            entries[file.path] = file.firstEntry
        }
        func location(_ path: String) -> SourceLocation? { entryLocation(entries[path] ?? pack.firstEntry) }
        for (_, paths) in groups.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) where paths.count > 1 {
            let byForm = Dictionary(grouping: paths) { Array(Self.normalized($0).utf8) }
            if byForm.count > 1 {
                let shown = byForm.values.map { $0[0] }.sorted { $0.precedesByCodePoint($1) }
                diagnostics.append(
                    .warning(
                        .caseCollision,
                        """
                        pack '\(pack.shortName)' holds \(shown.map { "'\($0)'" }.joined(separator: " and ")), which \
                        differ only in letter case and collide on a case-insensitive device: rename one
                        """,
                        at: location(shown[0]), subject: shown[0]))
            }
            for (_, forms) in byForm.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                // Two files with the very same bytes are one destination (a `destination-conflict`), not two spellings.
                var spellings = Set<PathKey>()
                let same = forms.filter { spellings.insert(PathKey($0)).inserted }
                guard same.count > 1 else { continue }
                diagnostics.append(
                    .warning(
                        .normalizationCollision,
                        """
                        pack '\(pack.shortName)' holds \(same.count) files named '\(same[0])' whose names differ only \
                        in Unicode normalization (composed and decomposed accents): Apple's file systems take them for \
                        one file; rename them so that they differ
                        """,
                        at: location(same[0]), subject: same[0]))
            }
        }
        return diagnostics
    }

    /// The extensions of resources Xcode compiles rather than copies (docs/xcode.md), lowercase ASCII.
    static let compiledExtensions: [[UInt8]] = [
        "storyboard", "xib", "atlas", "xcdatamodel", "xcdatamodeld", "xcmappingmodel", "xcstrings",
    ]
    .map { Array($0.utf8) }
    static let catalogExtension = Array("xcassets".utf8)

    /// What the first path component that a build tool compiles is: a catalog, another compiled resource, or none;
    /// with the path up to and including that component. One pass over the bytes: plan runs it for every file.
    static func compiledComponent(of path: String) -> (isCatalog: Bool, prefix: String)? {
        var path = path
        return path.withUTF8 { compiledComponent(of: UnsafeRawBufferPointer($0)) }
    }

    /// `compiledComponent(of:)` of a path's UTF-8 bytes (a resource's, in its arena).
    static func compiledComponent(of bytes: UnsafeRawBufferPointer) -> (isCatalog: Bool, prefix: String)? {
        var start = 0
        while start < bytes.count {
            var end = start
            var dot = -1
            while end < bytes.count && bytes[end] != UInt8(ascii: "/") {
                if bytes[end] == UInt8(ascii: ".") { dot = end }
                end += 1
            }
            if dot >= 0 {
                let length = end - dot - 1
                func matches(_ ext: [UInt8]) -> Bool {
                    guard ext.count == length else { return false }
                    for index in 0..<length where bytes[dot + 1 + index] | 0x20 != ext[index] { return false }
                    return true
                }
                let isCatalog = matches(catalogExtension)
                if isCatalog || compiledExtensions.contains(where: matches) {
                    return (isCatalog, String(decoding: bytes[0..<end], as: UTF8.self))
                }
            }
            start = end + 1
        }
        return nil
    }

    /// `asset-catalog-uncompiled` and `resource-uncompiled`: one warning each per pack, naming what it holds.
    func uncompiled(in pack: AssetPack) -> [Diagnostic] {
        var catalogs: [String] = []
        var compiled: [String] = []
        var catalogSet = Set<PathKey>()
        var compiledSet = Set<PathKey>()
        // Each warning is at the entry that tagged the first file it names: the one whose `allow` covers it.
        var catalogEntry: Int?
        var compiledEntry: Int?
        for file in pack.files {
            guard let (isCatalog, prefix) = file.withSource({ Self.compiledComponent(of: $0) }) else { continue }
            if isCatalog {
                if catalogs.isEmpty { catalogEntry = file.firstEntry }
                if catalogSet.insert(PathKey(prefix)).inserted { catalogs.append(prefix) }
            } else if compiledSet.insert(PathKey(prefix)).inserted {
                if compiled.isEmpty { compiledEntry = file.firstEntry }
                compiled.append(prefix)
            }
        }
        var diagnostics: [Diagnostic] = []
        func listed(_ items: [String]) -> String {
            items.prefix(3).map { "'\($0)'" }.joined(separator: ", ")
                + (items.count > 3 ? " and \(items.count - 3) more" : "")
        }
        if !catalogs.isEmpty {
            diagnostics.append(
                .warning(
                    .assetCatalogUncompiled,
                    """
                    pack '\(pack.shortName)' holds raw files of the asset catalog\(catalogs.count == 1 ? "" : "s") \
                    \(listed(catalogs)): Xcode compiles tagged catalog items with actool into the pack's Assets.car, \
                    which odrpack cannot do (actool runs only on a Mac), so UIImage(named:) and SKTexture(imageNamed:) \
                    will not find them and their sizes are estimates; build these packs with Xcode, or move the images \
                    out of the catalog into plain files
                    """,
                    at: entryLocation(catalogEntry ?? pack.firstEntry), subject: catalogs[0]))
        }
        if !compiled.isEmpty {
            diagnostics.append(
                .warning(
                    .resourceUncompiled,
                    """
                    pack '\(pack.shortName)' holds \(listed(compiled)), which Xcode compiles rather than copies \
                    (ibtool, momc, the string catalog compiler): odrpack packs them as they are, which the app cannot \
                    load; compile them first and tag the compiled output, or build these packs with Xcode
                    """,
                    at: entryLocation(compiledEntry ?? pack.firstEntry), subject: compiled[0]))
        }
        return diagnostics
    }

    /// NFC, the form APFS and HFS+ compare names in.
    static func normalized(_ path: String) -> String {
        path.utf8.contains(where: { $0 >= 0x80 }) ? path.precomposedStringWithCanonicalMapping : path
    }

    /// FNV-1a of the case-folded path: ASCII letters lowered in place, other paths NFC-normalized and `lowercased()`.
    /// Equal folded paths give equal hashes, without allocating for ASCII paths.
    static func caseInsensitiveHash(_ path: String) -> UInt64 {
        func fnv(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte &- 0x41 < 26 ? byte | 0x20 : byte)) &* 0x100_0000_01b3 }
            return hash
        }
        var path = path
        return path.withUTF8 { caseInsensitiveHash(UnsafeRawBufferPointer($0)) }
    }

    /// `caseInsensitiveHash(_:)` of a path's UTF-8 bytes: a string is made only for a path that is not ASCII.
    static func caseInsensitiveHash(_ path: UnsafeRawBufferPointer) -> UInt64 {
        func fnv(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte &- 0x41 < 26 ? byte | 0x20 : byte)) &* 0x100_0000_01b3 }
            return hash
        }
        if !path.contains(where: { $0 >= 0x80 }) { return fnv(path) }
        var folded = normalized(String(decoding: path, as: UTF8.self)).lowercased()
        return folded.withUTF8 { fnv(UnsafeRawBufferPointer($0)) }
    }

    /// Lower case for comparing paths; ASCII paths take a fast path.
    static func caseFolded(_ path: String) -> String {
        guard path.utf8.contains(where: { (0x41...0x5A).contains($0) || $0 >= 0x80 }) else { return path }
        if path.utf8.contains(where: { $0 >= 0x80 }) { return path.lowercased() }
        return String(decoding: path.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// `size-overflow` for every sum past Int64.max (docs/build-output.md, Bounded), and, for On-Demand Resources,
    /// `pack-info-too-large` for a pack whose Info.plist `verify` would refuse, and `size-overflow` for one whose
    /// files and Info.plist together (the ZipMetadata's total and the manifest's `uncompressedSize`) do not fit.
    func overflows() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (what, subject) in plan.overflowingSums {
            diagnostics.append(
                .error(
                    .sizeOverflow,
                    """
                    the sizes of \(what) add up to more than \(Int64.max) bytes, past what a signed 64-bit integer \
                    holds: no store or device takes that much; check for sparse or wrongly sized files
                    """,
                    at: manifest.keyLocations["resources"], subject: subject))
        }
        guard plan.format == .odr else { return diagnostics }
        let overflowing = Set(plan.overflowingSums.compactMap(\.subject))
        for pack in plan.packs {
            let location = entryLocation(pack.firstEntry)
            // The exact size only where the bound says it could matter: most packs have a few short tags.
            let bound = PackInfo.sizeBound(of: pack)
            let nearLimits =
                bound > PackInfo.maximumSize || pack.size.addingReportingOverflow(Int64(bound)).overflow
            let infoSize = nearLimits ? PackInfo.size(of: pack) : bound
            if infoSize > PackInfo.maximumSize {
                let tagBytes = pack.tags.lazy.map(\.utf8.count).reduce(0, +)
                let name = pack.shortName.count > 80 ? String(pack.shortName.prefix(80)) + "…" : pack.shortName
                diagnostics.append(
                    .error(
                        .packInfoTooLarge,
                        """
                        pack '\(name)' would have an Info.plist of \(infoSize) bytes (its \(pack.tags.count) \
                        tag\(pack.tags.count == 1 ? "" : "s") take \(tagBytes) bytes), over the \
                        \(PackInfo.maximumSize) bytes a pack's Info.plist may hold: give these files fewer or shorter \
                        tags
                        """,
                        at: location, subject: pack.id))
            }
            if !overflowing.contains(pack.id), pack.size.addingReportingOverflow(Int64(infoSize)).overflow {
                diagnostics.append(
                    .error(
                        .sizeOverflow,
                        """
                        pack '\(pack.shortName)' holds \(pack.size) bytes of files, which with its Info.plist add up \
                        to more than \(Int64.max) bytes, past what a signed 64-bit integer holds: check for sparse or \
                        wrongly sized files
                        """,
                        at: location, subject: pack.id))
            }
        }
        return diagnostics
    }

    /// The fix for a pack or tag over a size limit: when one file alone is over it, no split into tags can help, so
    /// say so and name the profile whose limit takes it, if one does (docs/diagnostics.md).
    func sizeFix(largest: ResolvedResource?, limit: Int64, key: LimitProfile.Key, split: String) -> String {
        guard let largest, largest.size > limit else { return split }
        var fix = """
            its file '\(largest.path)' alone is \(Self.over(largest.size, limit)) limit, so no split into more tags \
            can help: make that file smaller or split it into several files
            """
        // A limit the manifest's `limits` sets applies whatever the profile: the fix is there, not in another profile.
        if LimitProfile.named(plan.profileName).map({ $0[key] != limit }) ?? true {
            return fix + ", or raise '\(key.rawValue)' in the manifest's limits"
        }
        let candidates = LimitProfile.names.filter { $0 != LimitProfile.backgroundAssetsName && $0 != plan.profileName }
            .compactMap(LimitProfile.named)
        if plan.format == .odr,
            let larger = candidates.filter({
                ($0[key] ?? Int64.max) >= largest.size && ($0[key] ?? Int64.max) > limit
            }).min(by: { ($0[key] ?? Int64.max) < ($1[key] ?? Int64.max) })
        {
            let largerLimit = larger[key].map { ByteCount.format($0) + " limit" } ?? "no limit"
            let since = larger.name == "ios18" ? ", for apps that require iOS 18 or later" : ""
            fix += ", or use profile '\(larger.name)' (\(largerLimit)\(since))"
        }
        return fix
    }

    /// The size limits (docs/manifest.md#limits), in this order: each pack, each tag, the pack count, then the
    /// initial-install, initial-install-and-prefetch and total sizes.
    func sizes() -> [Diagnostic] {
        let largestFile = largestFiles()
        let soleTags = soleTags()
        return packSizes(largestFile: largestFile, soleTags: soleTags)
            + tagSizes(largestFile: largestFile, soleTags: soleTags) + packCount() + totalSizes()
    }

    /// Each pack's largest file (the first by path among equals): when it alone is over a limit, the fix says so.
    func largestFiles() -> [String: ResolvedResource] {
        var largestFile: [String: ResolvedResource] = [:]
        for pack in plan.packs {
            largestFile[pack.id] = pack.files.max { $0.size != $1.size ? $0.size < $1.size : $1.pathPrecedes($0) }
        }
        return largestFile
    }

    /// The tags that are one pack each: a pack whose tag set is that one tag, and the tag's only pack. The pack and
    /// the tag are the same bytes, so they get one size diagnostic, the pack's (docs/diagnostics.md).
    func soleTags() -> Set<String> {
        let single = Set(plan.packs.lazy.filter { $0.tags.count == 1 }.map(\.id))
        return Set(plan.tags.lazy.filter { $0.packs.count == 1 && single.contains($0.packs[0]) }.map(\.name))
    }

    /// `pack-too-large` over the profile's pack limit, else `over-recommended-size`, at the pack's first entry. A pack
    /// that is its one tag's only pack is named "pack and tag 'intro'", and takes the tag's `tag-too-large` too.
    func packSizes(largestFile: [String: ResolvedResource], soleTags: Set<String>) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let recommended = limits[.recommendedSize]
        for pack in plan.packs {
            let location = entryLocation(pack.firstEntry)
            let isTag = pack.tags.count == 1 && soleTags.contains(pack.tags[0])
            let name = "\(isTag ? "pack and tag" : "pack") '\(pack.shortName)'"
            if let limit = limits[.maxPackSize], pack.size > limit {
                let fix = sizeFix(
                    largest: largestFile[pack.id], limit: limit, key: .maxPackSize,
                    split: "split its files across more tags")
                diagnostics.append(
                    .error(
                        .packTooLarge, "\(name) is \(Self.over(pack.size, limit)) limit: \(fix)", at: location,
                        subject: pack.id))
            } else if isTag, let limit = limits[.maxTagSize], pack.size > limit {
                let fix = sizeFix(
                    largest: largestFile[pack.id], limit: limit, key: .maxTagSize, split: "split it into smaller tags")
                diagnostics.append(
                    .error(
                        .tagTooLarge, "\(name) is \(Self.over(pack.size, limit)) tag limit: \(fix)", at: location,
                        subject: pack.tags[0]))
            } else if let recommended, pack.size > recommended {
                diagnostics.append(
                    .warning(
                        .overRecommendedSize,
                        """
                        \(name) is \(Self.over(pack.size, recommended)) recommended size: smaller \
                        packs download sooner
                        """,
                        at: location, subject: pack.id))
            }
        }
        return diagnostics
    }

    /// `tag-too-large` over the profile's tag limit, else `over-recommended-size`, where the tag is first given; none
    /// for a tag that is one pack (`packSizes` reports it).
    func tagSizes(largestFile: [String: ResolvedResource], soleTags: Set<String>) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let recommended = limits[.recommendedSize]
        for tag in plan.tags where !soleTags.contains(tag.name) {
            let location = tagLocation(tag.name)
            if let limit = limits[.maxTagSize], tag.size > limit {
                let largest = tag.packs.compactMap { largestFile[$0] }.max {
                    $0.size != $1.size ? $0.size < $1.size : $1.pathPrecedes($0)
                }
                let fix = sizeFix(largest: largest, limit: limit, key: .maxTagSize, split: "split it into smaller tags")
                diagnostics.append(
                    .error(
                        .tagTooLarge,
                        """
                        tag '\(tag.name)' is \(Self.over(tag.size, limit)) limit (\(tag.packs.count) \
                        pack\(tag.packs.count == 1 ? "" : "s")): \(fix)
                        """,
                        at: location, subject: tag.name))
            } else if let recommended, tag.size > recommended {
                diagnostics.append(
                    .warning(
                        .overRecommendedSize,
                        """
                        tag '\(tag.name)' is \(Self.over(tag.size, recommended)) recommended size: smaller tags \
                        download sooner
                        """,
                        at: location, subject: tag.name))
            }
        }
        return diagnostics
    }

    /// `too-many-packs`, naming the five resources with the most tags: each distinct tag set is a pack.
    func packCount() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if let limit = limits[.maxPackCount], plan.packs.count > limit {
            let files: [ResolvedResource] = plan.packs.flatMap { Array($0.files) }
            let multipliers = files.sorted { (a: ResolvedResource, b: ResolvedResource) in
                a.tags.count != b.tags.count ? a.tags.count > b.tags.count : a.pathPrecedes(b)
            }.prefix(5).map { "'\($0.path)' (\($0.tags.count) tag\($0.tags.count == 1 ? "" : "s"))" }
            // Each language of a tag set is a pack of its own id (docs/background-assets.md#languages).
            let languages = Dictionary(grouping: plan.packs.compactMap(\.language), by: { $0 })
                .sorted { $0.key < $1.key }.map {
                    "\($0.key) (\($0.value.count) pack\($0.value.count == 1 ? "" : "s"))"
                }
            let languageNote =
                languages.isEmpty
                ? ""
                : """
                ; every language of a tag set is a pack of its own, and these languages multiply packs: \
                \(languages.joined(separator: ", "))
                """
            diagnostics.append(
                .error(
                    .tooManyPacks,
                    """
                    \(plan.packs.count) packs, over the limit of \(limit): every distinct tag set makes a pack; the \
                    resources with the most tags multiply packs: \(multipliers.joined(separator: ", "))\(languageNote)
                    """,
                    at: manifest.keyLocations["resources"]))
        }
        return diagnostics
    }

    /// The sums over several packs: initial-install, initial-install with prefetch, and all packs together.
    func totalSizes() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if let limit = limits[.maxInitialInstallSize], plan.initialInstallSize > limit {
            diagnostics.append(
                .error(
                    .initialInstallTooLarge,
                    """
                    initial-install content is \(Self.over(plan.initialInstallSize, limit)) limit: move tags to \
                    prefetch-order or on-demand
                    """,
                    at: manifest.keyLocations["initial-install"]))
        }
        if let limit = limits[.maxInitialPrefetchSize], plan.initialPrefetchSize > limit {
            diagnostics.append(
                .error(
                    .initialPrefetchTooLarge,
                    """
                    initial-install and prefetch content together is \(Self.over(plan.initialPrefetchSize, limit)) \
                    limit: leave some tags on-demand
                    """,
                    at: manifest.keyLocations["prefetch-order"] ?? manifest.keyLocations["initial-install"]))
        }
        if let limit = limits[.maxTotalSize], plan.totalSize > limit {
            diagnostics.append(
                .error(
                    .totalTooLarge,
                    "all packs together are \(Self.over(plan.totalSize, limit)) limit: remove or shrink resources",
                    at: manifest.keyLocations["resources"]))
        }
        return diagnostics
    }

    /// `530.1 MB, over the 512 MB`, with exact bytes where rounding would hide the difference.
    static func over(_ size: Int64, _ limit: Int64) -> String {
        let sizeText = ByteCount.format(size)
        let limitText = ByteCount.format(limit)
        if sizeText == limitText { return "\(sizeText) (\(size) bytes), over the \(limitText) (\(limit) bytes)" }
        return "\(sizeText), over the \(limitText)"
    }
}
