import ODRPackBuildFormat

/// The app files `thin` removes, as (pack, file) indices into the build manifest's compact file lists, sorted by path
/// (code-point order, the order thin reports them in): 8 bytes a file, where a list of paths took a String each, so
/// thinning a million files holds no copy of their paths (docs/build-output.md#bounded). Each path is made when it is
/// read.
package struct RemovedFiles: RandomAccessCollection, Sendable {
    /// A removed file: its pack's index in the manifest and its index in that pack's files.
    package struct Entry: Sendable, Equatable {
        package var pack: UInt32
        package var file: UInt32

        package init(pack: Int, file: Int) {
            self.pack = UInt32(pack)
            self.file = UInt32(file)
        }
    }

    /// Each pack's files, shared with the manifest (copy on write: holding them copies nothing).
    private let packs: [BuildManifest.Files]
    /// What a reported path starts with: `--resources-path` and a "/", or "".
    private let prefix: String
    /// The removed files, sorted by path.
    package let entries: [Entry]

    package init() { self.init(packs: [], prefix: "", entries: []) }

    /// The files `entries` names in `packs`, reported under `prefix`; sorts them by path.
    package init(packs: [BuildManifest.Files], prefix: String, entries: [Entry]) {
        self.packs = packs
        self.prefix = prefix
        var sorted = entries
        sorted.sort { left, right in
            packs[Int(left.pack)].comparePath(Int(left.file), with: Int(right.file), of: packs[Int(right.pack)]) < 0
        }
        self.entries = sorted
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { entries.count }

    /// The file's path relative to the app, as thin reports it.
    package subscript(index: Int) -> String { prefix + relativePath(at: index) }

    /// The file's path relative to the folder the packs' paths are relative to (the manifest's path).
    package func relativePath(at index: Int) -> String {
        let entry = entries[index]
        return packs[Int(entry.pack)].path(at: Int(entry.file))
    }
}
