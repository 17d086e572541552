import ODRPackCore
import ODRPackPlatform

/// The files of a plan's packs one at a time in code-point order of their paths, as a state's records are: a merge
/// of the packs' own sorted lists through a heap of one path per pack, so a build reads its files beside the state's
/// records in one pass without sorting or holding anything per file (docs/build-output.md#incremental).
struct PlanFileOrder {
    private let packs: [AssetPack]
    /// Each pack's next file.
    private var next: [Int]
    /// Packs with files left, by their next file's path.
    private var heap = MergeHeap<String> { $0.precedesByCodePoint($1) }

    init(_ packs: [AssetPack]) {
        self.packs = packs
        next = Array(repeating: 0, count: packs.count)
        for index in packs.indices where !packs[index].files.isEmpty {
            heap.push(index, key: packs[index].files[0].path)
        }
    }

    /// The next file: its pack, its index in the pack's files, the file and its path; nil after the last.
    mutating func pop() -> (pack: Int, index: Int, file: ResolvedResource, path: String)? {
        guard let (pack, path) = heap.first else { return nil }
        let index = next[pack]
        let file = packs[pack].files[index]
        next[pack] += 1
        if next[pack] < packs[pack].files.count {
            heap.replaceFirstKey(packs[pack].files[next[pack]].path)
        } else {
            heap.removeFirst()
        }
        return (pack, index, file, path)
    }
}
