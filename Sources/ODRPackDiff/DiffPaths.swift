import ODRPackBuildFormat

/// A pack's added, removed or modified files: slots into one side's manifest (its packs' file lists, shared with the
/// manifest, not copied), 8 bytes a file, read as their paths in the order they were found (code-point order). A diff
/// where every one of a million files changed holds no String for each (docs/build-output.md#bounded: a list of a
/// String a path took about 110 bytes each, 2 million of them at a million files).
package struct DiffPaths: RandomAccessCollection, Sendable {
    /// The file lists of the side the paths are read from, by pack index.
    private let files: [BuildManifest.Files]
    /// Each path's pack index (high 32 bits) and its index in that pack's files.
    private var slots: [UInt64]

    init(files: [BuildManifest.Files], slots: [UInt64]) {
        self.files = files
        self.slots = slots
    }

    package init() { self.init(files: [], slots: []) }

    package var startIndex: Int { 0 }
    package var endIndex: Int { slots.count }

    package subscript(index: Int) -> String {
        let slot = slots[index]
        return files[Int(slot >> 32)].path(at: Int(slot & 0xFFFF_FFFF))
    }
}
