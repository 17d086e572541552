import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

extension BuildDiff {
    /// What the file lists say of one pack id: its files added, removed and modified (each sorted by code point), and
    /// the counts that decide whether a pack without content hashes holds the same files.
    struct PackFiles {
        /// Slots into the new side's files (added, modified) and the old side's (removed).
        var added: [FileSlot] = []
        var removed: [FileSlot] = []
        var modified: [FileSlot] = []
        /// Distinct paths on each side, and the new side's that the old side holds with the same content.
        var oldPaths = 0
        var newPaths = 0
        var samePaths = 0
    }

    /// The files of both builds compared: the moves (sorted by path) and each pack id's `PackFiles` (in `ids` order).
    struct FileComparison {
        var moves: [Move] = []
        var packs: [PackFiles]
        /// Each side's file lists, by pack index, which the slots of `packs` point into.
        var oldFiles: [BuildManifest.Files]
        var newFiles: [BuildManifest.Files]
    }

    /// One file of a build: its pack's index (high 32 bits) and its index in the pack.
    typealias FileSlot = UInt64

    /// Compares the builds' files by a merge of both sides in path order, paths by their bytes (NFC and NFD spellings
    /// of one name are two files, docs/manifest.md#tags): nothing a file besides the manifests (a cursor per pack),
    /// where maps of paths took hundreds of bytes a file (docs/build-output.md#bounded).
    ///
    /// The rules are those of maps by path: a file's home on each side is the last pack listing it; a file whose home
    /// pack id differs between the sides moved. For each pack id (its first pack on each side), a path on the new side
    /// only is added, on the old side only removed (unless it moved), and on both with other content modified.
    static func compareFiles(old: BuildManifest, new: BuildManifest, ids: [String]) -> FileComparison {
        let rank = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // The pack id rank of each pack, and whether the pack is the first with its id (the one diff compares).
        func ranks(_ packs: [BuildManifest.Pack]) -> [(rank: Int, primary: Bool)] {
            var seen = Set<String>()
            return packs.map { (rank[$0.id]!, seen.insert($0.id).inserted) }
        }
        let oldFiles = old.packs.map(\.files)
        let newFiles = new.packs.map(\.files)
        let oldRanks = ranks(old.packs)
        let newRanks = ranks(new.packs)
        var oldCursor = PathCursor(oldFiles)
        var newCursor = PathCursor(newFiles)
        var result = FileComparison(
            packs: Array(repeating: PackFiles(), count: ids.count), oldFiles: oldFiles, newFiles: newFiles)

        var oldGroup: [FileSlot] = []
        var newGroup: [FileSlot] = []
        while true {
            // The next path, and the slots that list it on each side.
            let order: Int
            switch (oldCursor.head, newCursor.head) {
            case (nil, nil): return result
            case (_?, nil): order = -1
            case (nil, _?): order = 1
            case (let before?, let after?): order = compare(before, oldFiles, after, newFiles)
            }
            oldGroup.removeAll(keepingCapacity: true)
            newGroup.removeAll(keepingCapacity: true)
            if order <= 0 { oldCursor.popGroup(into: &oldGroup) }
            if order >= 0 { newCursor.popGroup(into: &newGroup) }
            let sample = oldGroup.isEmpty ? (newGroup[0], newFiles) : (oldGroup[0], oldFiles)
            var pathText: String?
            func path() -> String {
                if let pathText { return pathText }
                let text = sample.1[pack(sample.0)].path(at: file(sample.0))
                pathText = text
                return text
            }

            var moved = false
            // The home is the last listing: the highest pack index, then file index, which is the largest slot.
            if let oldHome = oldGroup.max(), let newHome = newGroup.max(),
                oldRanks[pack(oldHome)].rank != newRanks[pack(newHome)].rank
            {
                moved = true
                result.moves.append(
                    Move(
                        path: path(), fromPack: ids[oldRanks[pack(oldHome)].rank],
                        toPack: ids[newRanks[pack(newHome)].rank],
                        modified: !sameContent(
                            oldFiles[pack(oldHome)], file(oldHome), newFiles[pack(newHome)], file(newHome))))
            }
            // The first slot of each primary pack on a side: its first listing of the path.
            func firsts(_ group: [FileSlot], _ ranks: [(rank: Int, primary: Bool)]) -> [FileSlot] {
                var slots: [FileSlot] = []
                for slot in group where ranks[pack(slot)].primary {
                    if let index = slots.firstIndex(where: { pack($0) == pack(slot) }) {
                        slots[index] = min(slots[index], slot)
                    } else {
                        slots.append(slot)
                    }
                }
                return slots
            }
            let oldFirsts = firsts(oldGroup, oldRanks)
            let newFirsts = firsts(newGroup, newRanks)
            for slot in newFirsts {
                let id = newRanks[pack(slot)].rank
                result.packs[id].newPaths += 1
                if let before = oldFirsts.first(where: { oldRanks[pack($0)].rank == id }) {
                    if sameContent(oldFiles[pack(before)], file(before), newFiles[pack(slot)], file(slot)) {
                        result.packs[id].samePaths += 1
                    } else {
                        result.packs[id].modified.append(slot)
                    }
                } else if !moved {
                    result.packs[id].added.append(slot)
                }
            }
            for slot in oldFirsts {
                let id = oldRanks[pack(slot)].rank
                result.packs[id].oldPaths += 1
                if !moved && !newFirsts.contains(where: { newRanks[pack($0)].rank == id }) {
                    result.packs[id].removed.append(slot)
                }
            }
        }
    }

    @inline(__always) static func pack(_ slot: FileSlot) -> Int { Int(slot >> 32) }
    @inline(__always) static func file(_ slot: FileSlot) -> Int { Int(slot & 0xFFFF_FFFF) }

    /// The paths of `a` and `b` in code-point order: <0, 0 or >0.
    static func compare(_ a: FileSlot, _ aFiles: [BuildManifest.Files], _ b: FileSlot, _ bFiles: [BuildManifest.Files])
        -> Int
    {
        aFiles[pack(a)].comparePath(file(a), with: file(b), of: bFiles[pack(b)])
    }

    /// One build's files in path order (then pack order, then file order), by a merge of its packs' lists that
    /// holds nothing but a cursor per pack: a build writes each list sorted, and a list that is not gets an order of
    /// its own (docs/build-output.md#bounded).
    struct PathCursor {
        let files: [BuildManifest.Files]
        /// Per pack, its files' order when its list is not sorted by path.
        var orders: [[Int]?]
        /// Per pack, the position of its next file in its order.
        var positions: [Int]
        /// The packs with files left, by their next file (a tie goes to the pack listed first).
        var heap: MergeHeap<FileSlot>

        init(_ files: [BuildManifest.Files]) {
            self.files = files
            orders = files.indices.map { packIndex in
                let list = files[packIndex]
                let sorted = list.indices.dropFirst().allSatisfy { list.comparePath($0 - 1, with: $0, of: list) <= 0 }
                return sorted
                    ? nil
                    : list.indices.sorted { left, right in
                        let order = list.comparePath(left, with: right, of: list)
                        return order != 0 ? order < 0 : left < right
                    }
            }
            positions = Array(repeating: 0, count: files.count)
            heap = MergeHeap { a, b in
                let order = BuildDiff.compare(a, files, b, files)
                return order != 0 ? order < 0 : a >> 32 < b >> 32
            }
            for packIndex in files.indices where !files[packIndex].isEmpty {
                heap.push(packIndex, key: slot(of: packIndex))
            }
        }

        /// Pack `packIndex`'s next file.
        func slot(of packIndex: Int) -> FileSlot {
            let position = positions[packIndex]
            return FileSlot(packIndex) << 32 | FileSlot(orders[packIndex]?[position] ?? position)
        }

        var head: FileSlot? { heap.first?.key }

        /// Takes the next file, moving its pack on.
        mutating func pop() -> FileSlot {
            let (packIndex, taken) = heap.first!
            positions[packIndex] += 1
            if positions[packIndex] == files[packIndex].count {
                heap.removeFirst()
            } else {
                heap.replaceFirstKey(slot(of: packIndex))
            }
            return taken
        }

        /// Takes every file that shares the next one's path.
        mutating func popGroup(into group: inout [FileSlot]) {
            let first = pop()
            group.append(first)
            while let next = head, BuildDiff.compare(first, files, next, files) == 0 { group.append(pop()) }
        }
    }
}
