/// The metadata of every entry under a folder, read in one pass (see `FileTreeScanner`): resolution tags
/// from it without further system calls, and a build compares its fingerprint with the last build's.
public struct FileTree: Sendable {
    /// One folder's entries, sorted by name in code-point order.
    struct Directory: Sendable {
        /// The names, each followed by a NUL, back to back in entry order.
        var nameBytes: [UInt8] = []
        /// Where each entry's name starts in `nameBytes`.
        var nameStarts: [Int] = []
        var entries: [Entry] = []
        /// errno when the folder could not be read; then it has no entries.
        var error: Int32 = 0

        var count: Int { nameStarts.count }

        /// The name's bytes, without the NUL.
        func name(_ index: Int) -> ArraySlice<UInt8> {
            let end = index + 1 < nameStarts.count ? nameStarts[index + 1] - 1 : nameBytes.count - 1
            return nameBytes[nameStarts[index]..<end]
        }
    }

    /// One entry's `lstat` metadata.
    struct Entry: Sendable {
        /// `st_mode`; 0 when the entry vanished before it could be read.
        var mode: UInt32
        var stamp: FileStamp
        /// The index of the scanned folder for a subfolder, else -1 (files, links, `.git`).
        var child: Int
    }

    /// The scanned folder, as given to the scanner.
    public let path: String
    /// Index 0 is the scanned folder itself.
    var directories: [Directory]
    /// SHA-256 over every entry's name and metadata in tree order: equal fingerprints mean an unchanged tree.
    /// Nil when the tree holds symbolic links or unreadable entries, whose targets a snapshot does not capture.
    public var fingerprint: String?
}
