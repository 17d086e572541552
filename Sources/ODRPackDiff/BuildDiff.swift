import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// What changes between two builds, and what a device that holds the old one downloads again (docs/commands.md#diff).
/// Pure: it compares two manifests.
package struct BuildDiff: Sendable {
    package enum Status: String, Sendable {
        case added, removed, changed, unchanged
    }

    package struct PackChange: Sendable {
        package var id: String
        package var tags: [String]
        package var status: Status
        /// The category on the new side (old side for a removed pack).
        package let category: DownloadCategory
        package var oldSize: Int64?
        package var newSize: Int64?
        package var added = DiffPaths()
        package var removed = DiffPaths()
        package var modified = DiffPaths()
        /// Files that came from another pack (their tags changed), and files that went to another.
        package var movedIn: [String] = []
        package var movedOut: [String] = []
        /// Each side's category and priority (nil for the side that does not have the pack).
        package var oldCategory: DownloadCategory?
        package var newCategory: DownloadCategory?
        package var oldPriority: Double?
        package var newPriority: Double?
        /// Both sides have the pack and its category differs: what every new install downloads changed.
        package var categoryChanged: Bool { oldCategory != nil && newCategory != nil && oldCategory != newCategory }
        package var priorityChanged: Bool {
            oldCategory != nil && newCategory != nil && oldPriority != newPriority
        }
        /// Its archive's bytes differ (both sides know them).
        package var archiveChanged = false
        /// What a device downloads again for this pack: its new size when added or changed.
        package var redownloadSize: Int64 { status == .added || status == .changed ? newSize ?? 0 : 0 }
        /// The new archive's size, what crosses the network (nil without archives: a folder-layout build).
        package var newArchiveSize: Int64?
        /// The bytes a device fetches again for this pack: its new archive when added or changed, else nothing; the
        /// resource bytes where the build holds no archive (docs/commands.md#diff).
        package var redownloadDownloadSize: Int64 {
            status == .added || status == .changed ? newArchiveSize ?? newSize ?? 0 : 0
        }
        package var shortName: String { tags.joined(separator: "+") }
        /// Both sides have the pack and it holds the same files with the same bytes (none moved in or out).
        package var sameFiles = false
        /// Why a pack whose files did not change downloads again: its category or priority changed, which an ODR
        /// pack's `Info.plist` holds, so its archive changed (docs/commands.md#diff); nil for any other pack.
        package var downloadReason: String? {
            guard status == .changed, sameFiles, categoryChanged || priorityChanged else { return nil }
            var changes: [String] = []
            if categoryChanged, let old = oldCategory, let new = newCategory {
                changes.append("category (\(old.rawValue) → \(new.rawValue))")
            }
            if priorityChanged {
                changes.append("priority (\(Self.priorityText(oldPriority)) → \(Self.priorityText(newPriority)))")
            }
            return """
                no file changed, but its \(changes.joined(separator: " and ")) changed, and its Info.plist holds \
                \(changes.count == 1 ? "it" : "both")
                """
        }

        /// A priority as the reports write it: `1`, `0.5`, `0.333`, `none`.
        package static func priorityText(_ value: Double?) -> String {
            guard let value else { return "none" }
            var text = String(format: "%.3f", value)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text
        }
    }

    /// A file whose tags changed, so it now lives in another pack.
    package struct Move: Sendable {
        package let path: String
        package let fromPack: String
        package let toPack: String
        /// Its content changed too.
        package let modified: Bool
    }

    package struct TagChange: Sendable {
        package let name: String
        package let status: Status
        package let category: DownloadCategory
        package let redownloadSize: Int64
        /// The archive bytes a device fetches again for the tag (`redownloadDownloadSize` of its packs).
        package var redownloadDownloadSize: Int64 = 0
    }

    package var packs: [PackChange]
    package private(set) var moves: [Move]
    package var tags: [TagChange]
    package let redownloadInitialInstall: Int64
    package let redownloadPrefetch: Int64
    package let redownloadOnDemand: Int64
    /// The same per category in archive bytes, what devices fetch (equal to the resource bytes without archives).
    package let redownloadDownloadInitialInstall: Int64
    package let redownloadDownloadPrefetch: Int64
    package let redownloadDownloadOnDemand: Int64
    /// NEW's packs are archives (zip layout, Background Assets): false for a folder-layout build, whose download
    /// figures are its resource bytes.
    package let downloadsArchives: Bool
    /// A tag was added to, removed from or moved in `prefetch-order`: the number of packs on both sides whose priority
    /// moved with it, which devices download again; nil when `prefetch-order` is the same.
    package let prefetchOrderMoves: Int?
    /// Background Assets builds: the asset pack ids of the packs added or changed, whose new version must be
    /// uploaded (sorted); nil for ODR builds.
    package var upload: [String]?
    /// Background Assets builds: the asset pack ids OLD has and NEW does not (sorted); nil for ODR builds.
    package var retired: [String]?
    /// NEW's hosting, for what retiring means there (docs/background-assets.md); nil for ODR builds.
    package var hosting: BackgroundAssetsSettings.Hosting?

    /// The diff without its packs' file lists and its moves, whose every other figure is the same: what a document
    /// that writes those a path at a time is made around.
    package var withoutFileLists: BuildDiff {
        var copy = self
        for index in copy.packs.indices {
            copy.packs[index].added = DiffPaths()
            copy.packs[index].removed = DiffPaths()
            copy.packs[index].modified = DiffPaths()
        }
        copy.moves = []
        return copy
    }

    package var packsChanged: Int { packs.filter { $0.status != .unchanged }.count }
    package var hasChanges: Bool { packsChanged > 0 || !moves.isEmpty || tags.contains { $0.status != .unchanged } }

    /// Two builds can be compared only when they are of one app and one format.
    /// - Throws: `ODRPackError.buildFolder` (exit 2) otherwise.
    package static func checkComparable(old: BuildManifest, new: BuildManifest) throws {
        guard old.bundleId == new.bundleId else {
            throw ODRPackError.buildFolder(.differentApps(old: old.bundleId, new: new.bundleId))
        }
        guard old.format == new.format else {
            throw ODRPackError.buildFolder(
                .differentFormats(old: old.format.kind.shortName, new: new.format.kind.shortName))
        }
    }

    /// - Parameter newHasArchives: NEW's packs are archives, whose `archiveSize` is what a device downloads; false for
    ///   a folder-layout build (its packs' folders are not what crosses the network).
    package init(old: BuildManifest, new: BuildManifest, newHasArchives: Bool = true) {
        let oldPacks = Dictionary(old.packs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newPacks = Dictionary(new.packs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let ids = Set(oldPacks.keys).union(newPacks.keys).sorted()
        let files = Self.compareFiles(old: old, new: new, ids: ids)
        let changes = Self.packChanges(
            old: oldPacks, new: newPacks, ids: ids, files: files, newHasArchives: newHasArchives)
        packs = changes
        moves = files.moves
        tags = Self.tagChanges(old: old, new: new, packs: changes)
        func redownload(_ category: DownloadCategory) -> Int64 {
            changes.lazy.filter { $0.category == category }.map(\.redownloadSize).saturatingSum
        }
        redownloadInitialInstall = redownload(.initialInstall)
        redownloadPrefetch = redownload(.prefetch)
        redownloadOnDemand = redownload(.onDemand)
        func download(_ category: DownloadCategory) -> Int64 {
            changes.lazy.filter { $0.category == category }.map(\.redownloadDownloadSize).saturatingSum
        }
        redownloadDownloadInitialInstall = download(.initialInstall)
        redownloadDownloadPrefetch = download(.prefetch)
        redownloadDownloadOnDemand = download(.onDemand)
        downloadsArchives = newHasArchives && new.packs.allSatisfy { $0.archiveSize != nil }
        prefetchOrderMoves =
            old.prefetchOrder == new.prefetchOrder ? nil : changes.filter { $0.priorityChanged }.count
        if new.format.kind.hasAssetPackIDs {
            let assetPackIDs = Dictionary(
                new.packs.map { ($0.id, $0.assetPackId ?? $0.id) }, uniquingKeysWith: { first, _ in first })
            upload = changes.filter { $0.status == .added || $0.status == .changed }.compactMap { assetPackIDs[$0.id] }
                .sorted { $0.precedesByCodePoint($1) }
            let newIDs = Set(new.packs.map { $0.assetPackId ?? $0.id })
            retired = Set(old.packs.map { $0.assetPackId ?? $0.id }).subtracting(newIDs).sorted {
                $0.precedesByCodePoint($1)
            }
            hosting = new.backgroundAssets?.hosting
        }
    }

    /// Each pack id's change, in `ids` order: its sizes, category, priority, moves and files, and whether a device
    /// receives anything new.
    private static func packChanges(
        old oldPacks: [String: BuildManifest.Pack], new newPacks: [String: BuildManifest.Pack], ids: [String],
        files: FileComparison, newHasArchives: Bool
    ) -> [PackChange] {
        var movedIn: [String: [String]] = [:]
        var movedOut: [String: [String]] = [:]
        for move in files.moves {
            movedIn[move.toPack, default: []].append(move.path)
            movedOut[move.fromPack, default: []].append(move.path)
        }

        var changes: [PackChange] = []
        for (rank, id) in ids.enumerated() {
            let before = oldPacks[id]
            let after = newPacks[id]
            let reference = (after ?? before)!
            var change = PackChange(
                id: id, tags: reference.tags, status: .unchanged, category: reference.category,
                oldSize: before?.size, newSize: after?.size)
            change.newArchiveSize = newHasArchives ? after?.archiveSize : nil
            change.oldCategory = before?.category
            change.newCategory = after?.category
            change.oldPriority = before?.priority
            change.newPriority = after?.priority
            change.movedIn = movedIn[id] ?? []
            change.movedOut = movedOut[id] ?? []
            let tally = files.packs[rank]
            change.added = DiffPaths(files: files.newFiles, slots: tally.added)
            change.removed = DiffPaths(files: files.oldFiles, slots: tally.removed)
            change.modified = DiffPaths(files: files.newFiles, slots: tally.modified)
            switch (before, after) {
            case (nil, _?): change.status = .added
            case (_?, nil): change.status = .removed
            case (let before?, let after?):
                let sameContent =
                    before.contentHash != nil && after.contentHash != nil
                    ? before.contentHash == after.contentHash
                    : tally.oldPaths == tally.newPaths && tally.samePaths == tally.newPaths
                // Anything a device receives: the files, the archive's bytes (Info.plist holds the priority), and
                // the category, which decides when it downloads (docs/commands.md#diff).
                change.archiveChanged =
                    before.archiveSha256 != nil && after.archiveSha256 != nil
                    && before.archiveSha256 != after.archiveSha256
                change.sameFiles = sameContent && change.movedIn.isEmpty && change.movedOut.isEmpty
                change.status =
                    sameContent && !change.archiveChanged && !change.categoryChanged && !change.priorityChanged
                    ? .unchanged : .changed
            default: break
            }
            changes.append(change)
        }
        return changes
    }

    /// Each tag's change, sorted by name: added, removed, or changed when a pack it holds changed or it holds others.
    private static func tagChanges(old: BuildManifest, new: BuildManifest, packs: [PackChange]) -> [TagChange] {
        let byID = Dictionary(packs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let oldTags = Dictionary(old.tags.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newTags = Dictionary(new.tags.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return Set(oldTags.keys).union(newTags.keys).sorted().map { name in
            guard let after = newTags[name] else {
                return TagChange(name: name, status: .removed, category: oldTags[name]!.category, redownloadSize: 0)
            }
            let redownload = after.packs.lazy.map { byID[$0]?.redownloadSize ?? 0 }.saturatingSum
            let download = after.packs.lazy.map { byID[$0]?.redownloadDownloadSize ?? 0 }.saturatingSum
            let status: Status
            if oldTags[name] == nil {
                status = .added
            } else if redownload > 0 || Set(oldTags[name]!.packs) != Set(after.packs)
                || after.packs.contains(where: { byID[$0]?.status != .unchanged })
            {
                status = .changed
            } else {
                status = .unchanged
            }
            var change = TagChange(name: name, status: status, category: after.category, redownloadSize: redownload)
            change.redownloadDownloadSize = download
            return change
        }
    }

    /// Whether file `a` of `old` and `b` of `new` hold the same bytes: same hash and size, or the same size where
    /// either has no hash.
    static func sameContent(_ old: BuildManifest.Files, _ a: Int, _ new: BuildManifest.Files, _ b: Int) -> Bool {
        guard old.size(at: a) == new.size(at: b) else { return false }
        return old.sameSHA256(a, as: b, of: new) ?? true
    }
}
