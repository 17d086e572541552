/// The heap of a k-way merge: one entry per sorted list that still has items, keyed by that list's next item, the
/// least first. The merges of sorted file lists (a build's packs beside its state, `diff`'s packs) each keep only
/// this and a position per list, never the merged whole (docs/build-output.md#bounded).
package struct MergeHeap<Key> {
    private var entries: [(list: Int, key: Key)] = []
    private let precedes: (Key, Key) -> Bool

    /// - Parameter precedes: the order of keys; a key must never precede an equal one (a strict order).
    package init(by precedes: @escaping (Key, Key) -> Bool) { self.precedes = precedes }

    /// The list whose next item is least, and that item's key.
    package var first: (list: Int, key: Key)? { entries.first }

    /// Adds a list by its next item's key.
    package mutating func push(_ list: Int, key: Key) {
        entries.append((list, key))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(entries[child].key, entries[parent].key) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// The first list moved on to its next item, keyed `key`.
    package mutating func replaceFirstKey(_ key: Key) {
        entries[0].key = key
        siftDown()
    }

    /// The first list has no items left.
    package mutating func removeFirst() {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return }
        entries[0] = last
        siftDown()
    }

    private mutating func siftDown() {
        var parent = 0
        while true {
            var least = parent
            let left = 2 * parent + 1
            if left < entries.count, precedes(entries[left].key, entries[least].key) { least = left }
            if left + 1 < entries.count, precedes(entries[left + 1].key, entries[least].key) { least = left + 1 }
            guard least != parent else { return }
            entries.swapAt(parent, least)
            parent = least
        }
    }
}
