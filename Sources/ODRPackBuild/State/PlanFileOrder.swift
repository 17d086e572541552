import ODRPackCore
import ODRPackPlatform

/// The files of a plan's packs one at a time in code-point order of their paths, as a state's records are: a merge
/// of the packs' own sorted lists through a heap of one path per pack, so a build reads its files beside the state's
/// records in one pass without sorting or holding anything per file (docs/build-output.md#incremental).
struct PlanFileOrder {
    private let packs: [AssetPack]
    /// Each pack's next file and its path's bytes.
    private var next: [Int]
    private var heads: [String]
    /// Packs with files left, a min-heap by `heads`.
    private var heap: [Int] = []

    init(_ packs: [AssetPack]) {
        self.packs = packs
        next = Array(repeating: 0, count: packs.count)
        heads = packs.map { $0.files.first?.path ?? "" }
        for index in packs.indices where !packs[index].files.isEmpty { push(index) }
    }

    /// The next file: its pack, its index in the pack's files, the file and its path; nil after the last.
    mutating func pop() -> (pack: Int, index: Int, file: ResolvedResource, path: String)? {
        guard let pack = heap.first else { return nil }
        let index = next[pack]
        let path = heads[pack]
        let file = packs[pack].files[index]
        next[pack] += 1
        if next[pack] < packs[pack].files.count {
            heads[pack] = packs[pack].files[next[pack]].path
            siftDown(0)
        } else {
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                siftDown(0)
            }
        }
        return (pack, index, file, path)
    }

    private func precedes(_ a: Int, _ b: Int) -> Bool {
        heads[a].precedesByCodePoint(heads[b])
    }

    private mutating func push(_ pack: Int) {
        heap.append(pack)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var smallest = parent
            let left = 2 * parent + 1
            if left < heap.count, precedes(heap[left], heap[smallest]) { smallest = left }
            if left + 1 < heap.count, precedes(heap[left + 1], heap[smallest]) { smallest = left + 1 }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
