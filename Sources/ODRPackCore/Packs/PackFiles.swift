/// A pack's files, sorted by path: positions in the resolution's one array of resources, which every pack shares
/// instead of holding a copy of its files (4 bytes a file, not 72; docs/build-output.md, Bounded).
package struct PackFiles: RandomAccessCollection, Sendable, ExpressibleByArrayLiteral {
    /// Every resource of the resolution (shared storage, never copied).
    private let resources: [ResolvedResource]
    /// This pack's files, as positions in `resources`, ascending.
    private let positions: [UInt32]

    /// The files of a pack: `positions` into `resources`, in the order the pack lists them.
    init(_ resources: [ResolvedResource], positions: [UInt32]) {
        self.resources = resources
        self.positions = positions
    }

    /// A pack of exactly these files, in this order.
    package init(_ files: [ResolvedResource]) {
        self.init(files, positions: files.indices.map { UInt32($0) })
    }

    package init(arrayLiteral files: ResolvedResource...) { self.init(files) }

    package var startIndex: Int { 0 }
    package var endIndex: Int { positions.count }
    package subscript(position: Int) -> ResolvedResource { resources[Int(positions[position])] }

    /// Whether the files are views into `resources`' storage rather than a copy of it (for tests of memory).
    func sharesStorage(with resources: [ResolvedResource]) -> Bool {
        self.resources.withUnsafeBufferPointer { mine in
            resources.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }
}
