import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

extension BuildDiff {
    /// What the file lists say of one pack id: its files added, removed and modified (each sorted by code point), and
    /// the counts that decide whether a pack without content hashes holds the same files.
    struct PackFiles {
        var added: [String] = []
        var removed: [String] = []
        var modified: [String] = []
        /// Distinct paths on each side, and the new side's that the old side holds with the same content.
        var oldPaths = 0
        var newPaths = 0
        var samePaths = 0
    }

    /// The files of both builds compared: the moves (sorted by path) and each pack id's `PackFiles` (in `ids` order).
    struct FileComparison {
        var moves: [Move] = []
        var packs: [PackFiles]
    }

    /// One file of a build: its pack's index (high 32 bits) and its index in the pack.
    typealias FileSlot = UInt64

    /// Compares the builds' files by a merge of both sides in path order, paths by their bytes (NFC and NFD spellings
    /// of one name are two files, docs/manifest.md#tags): two arrays of 8 bytes a file besides the manifests, where
    /// maps of paths took hundreds of bytes a file (docs/build-output.md#bounded).
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
        let oldOrder = pathOrder(oldFiles)
        let newOrder = pathOrder(newFiles)
        var result = FileComparison(packs: Array(repeating: PackFiles(), count: ids.count))

        var i = 0
        var j = 0
        while i < oldOrder.count || j < newOrder.count {
            // The next path, and the slots that list it on each side.
            let order: Int
            if i == oldOrder.count {
                order = 1
            } else if j == newOrder.count {
                order = -1
            } else {
                order = compare(oldOrder[i], oldFiles, newOrder[j], newFiles)
            }
            let oldGroup = i..<(order <= 0 ? groupEnd(oldOrder, from: i, oldFiles) : i)
            let newGroup = j..<(order >= 0 ? groupEnd(newOrder, from: j, newFiles) : j)
            i = oldGroup.upperBound
            j = newGroup.upperBound
            let sample =
                oldGroup.isEmpty ? (newOrder[newGroup.lowerBound], newFiles) : (oldOrder[oldGroup.lowerBound], oldFiles)
            var pathText: String?
            func path() -> String {
                if let pathText { return pathText }
                let text = sample.1[pack(sample.0)].path(at: file(sample.0))
                pathText = text
                return text
            }

            var moved = false
            if let oldHome = oldGroup.last.map({ oldOrder[$0] }), let newHome = newGroup.last.map({ newOrder[$0] }),
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
            // The first slot of each primary pack on a side (slots are in pack order, then file order).
            func firsts(_ group: Range<Int>, _ order: [FileSlot], _ ranks: [(rank: Int, primary: Bool)]) -> [FileSlot] {
                var slots: [FileSlot] = []
                for index in group where ranks[pack(order[index])].primary {
                    if let last = slots.last, pack(last) == pack(order[index]) { continue }
                    slots.append(order[index])
                }
                return slots
            }
            let oldFirsts = firsts(oldGroup, oldOrder, oldRanks)
            let newFirsts = firsts(newGroup, newOrder, newRanks)
            for slot in newFirsts {
                let id = newRanks[pack(slot)].rank
                result.packs[id].newPaths += 1
                if let before = oldFirsts.first(where: { oldRanks[pack($0)].rank == id }) {
                    if sameContent(oldFiles[pack(before)], file(before), newFiles[pack(slot)], file(slot)) {
                        result.packs[id].samePaths += 1
                    } else {
                        result.packs[id].modified.append(path())
                    }
                } else if !moved {
                    result.packs[id].added.append(path())
                }
            }
            for slot in oldFirsts {
                let id = oldRanks[pack(slot)].rank
                result.packs[id].oldPaths += 1
                if !moved && !newFirsts.contains(where: { newRanks[pack($0)].rank == id }) {
                    result.packs[id].removed.append(path())
                }
            }
        }
        return result
    }

    @inline(__always) static func pack(_ slot: FileSlot) -> Int { Int(slot >> 32) }
    @inline(__always) static func file(_ slot: FileSlot) -> Int { Int(slot & 0xFFFF_FFFF) }

    /// The paths of `a` and `b` in code-point order: <0, 0 or >0.
    static func compare(_ a: FileSlot, _ aFiles: [BuildManifest.Files], _ b: FileSlot, _ bFiles: [BuildManifest.Files])
        -> Int
    {
        aFiles[pack(a)].comparePath(file(a), with: file(b), of: bFiles[pack(b)])
    }

    /// The end of the run of slots from `start` that share its path.
    static func groupEnd(_ order: [FileSlot], from start: Int, _ files: [BuildManifest.Files]) -> Int {
        var end = start + 1
        while end < order.count && compare(order[start], files, order[end], files) == 0 { end += 1 }
        return end
    }

    /// Every file of the packs, in path order, then pack order, then file order: each pack's list sorted (a build
    /// writes it sorted, so this is one check), then the packs' runs merged pairwise.
    static func pathOrder(_ files: [BuildManifest.Files]) -> [FileSlot] {
        var runs: [[FileSlot]] = files.enumerated().map { packIndex, list in
            var run = list.indices.map { FileSlot(packIndex) << 32 | FileSlot($0) }
            let sorted = zip(run, run.dropFirst()).allSatisfy { compare($0, files, $1, files) <= 0 }
            if !sorted {
                run.sort { left, right in
                    let order = compare(left, files, right, files)
                    return order != 0 ? order < 0 : left < right
                }
            }
            return run
        }
        while runs.count > 1 {
            var merged: [[FileSlot]] = []
            merged.reserveCapacity((runs.count + 1) / 2)
            var index = 0
            while index < runs.count {
                if index + 1 == runs.count {
                    merged.append(runs[index])
                } else {
                    merged.append(merge(runs[index], runs[index + 1], files))
                }
                runs[index] = []
                if index + 1 < runs.count { runs[index + 1] = [] }
                index += 2
            }
            runs = merged
        }
        return runs.first ?? []
    }

    /// Two runs in path order merged; on equal paths the left run's slots (earlier packs) first.
    static func merge(_ left: [FileSlot], _ right: [FileSlot], _ files: [BuildManifest.Files]) -> [FileSlot] {
        var result: [FileSlot] = []
        result.reserveCapacity(left.count + right.count)
        var i = 0
        var j = 0
        while i < left.count && j < right.count {
            if compare(right[j], files, left[i], files) < 0 {
                result.append(right[j])
                j += 1
            } else {
                result.append(left[i])
                i += 1
            }
        }
        result.append(contentsOf: left[i...])
        result.append(contentsOf: right[j...])
        return result
    }
}
