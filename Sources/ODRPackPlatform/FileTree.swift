import CPlatform
import Foundation

/// The metadata of every entry under a folder, read in one pass (see `FileTreeScanner`): resolution tags
/// from it without further system calls, and a build compares its fingerprint with the last build's.
package struct FileTree: Sendable {
    /// One folder's entries: in `readdir` order as scanned, by name once sorted.
    package struct Directory: Sendable {
        /// The names, each followed by a NUL, back to back in entry order.
        var nameBytes: [UInt8] = []
        /// Where each entry's name starts in `nameBytes` (32-bit: half the memory, and no folder lists 4 GB of names).
        var nameStarts: [UInt32] = []
        package var entries: [Entry] = []
        /// errno when the folder could not be read; then it has no entries.
        package var error: Int32 = 0

        package var count: Int { nameStarts.count }

        /// Whether an entry has this exact name (a linear look: for the few names checked per folder).
        package func contains(name wanted: String) -> Bool {
            let bytes = Array(wanted.utf8)
            return (0..<count).contains { nameSpan($0).count == bytes.count + 1 && name($0).elementsEqual(bytes) }
        }

        /// The name's bytes, without the NUL.
        package func name(_ index: Int) -> ArraySlice<UInt8> {
            nameBytes[nameSpan(index).dropLast()]
        }

        /// Where the name's bytes and the NUL after them are in `nameBytes`.
        func nameSpan(_ index: Int) -> Range<Int> {
            Int(nameStarts[index])..<(index + 1 < nameStarts.count ? Int(nameStarts[index + 1]) : nameBytes.count)
        }

        /// Adds a name: its bytes and the NUL after them.
        mutating func appendName(_ bytes: UnsafeBufferPointer<UInt8>) {
            nameStarts.append(UInt32(nameBytes.count))
            nameBytes.append(contentsOf: bytes)
        }

        /// Adds another folder's names and entries after these.
        mutating func append(contentsOf other: Directory) {
            let offset = nameBytes.count
            nameBytes += other.nameBytes
            nameStarts += other.nameStarts.lazy.map { $0 + UInt32(offset) }
            entries += other.entries
        }
    }

    /// One entry's `lstat` metadata: 56 bytes, a million of them per million files (the 32-bit fields last, so no
    /// padding).
    package struct Entry: Sendable {
        package let stamp: FileStamp
        /// The index of the scanned folder for a subfolder, else -1 (files, links, `.git`).
        package var child: Int
        /// `st_mode`; 0 when the entry vanished before it could be read.
        package let mode: FileMode
        /// errno when `lstat` failed (mode is then 0); ENOENT means the entry vanished while it was scanned.
        package var error: Int32 = 0

        package init(mode: FileMode, stamp: FileStamp, child: Int, error: Int32 = 0) {
            self.stamp = stamp
            self.child = child
            self.mode = mode
            self.error = error
        }
    }

    /// The scanned folder, as given to the scanner.
    package let path: String
    /// Index 0 is the scanned folder itself.
    package var directories: [Directory]
    /// SHA-256 over every entry's name and metadata in tree order: equal fingerprints mean an unchanged tree.
    /// Nil when the tree holds symbolic links or unreadable entries, whose targets a snapshot does not capture.
    package var fingerprint: String?
    /// Whether every folder's entries are in name order (`sortedByName`), as resolution needs them.
    private(set) var isSortedByName = false

    /// Every folder's entries in code-point order of their names, a folder's name taken with a `/` after it:
    /// then a depth-first walk lists every path in code-point order. The folders are sorted on `jobs` threads.
    package func sortedByName(jobs: Int = SystemCall.processorCount) -> FileTree {
        var sorted = self
        sorted.sortByName(jobs: jobs)
        return sorted
    }

    /// Sorts as `sortedByName` does, in place: each folder's unsorted entries are freed as soon as its sorted ones
    /// exist, so a tree no one else holds is never held twice (a million entries are some 70 MB).
    package mutating func sortByName(jobs: Int = SystemCall.processorCount) {
        guard !isSortedByName else { return }
        let count = directories.count
        let next = Locked(0)
        directories.withUnsafeMutableBufferPointer { buffer in
            // Each folder is taken by one thread (`next`), which alone reads and writes its slot.
            nonisolated(unsafe) let buffer = buffer
            DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, count))) { _ in
                while true {
                    let index = next.withLock { next in
                        defer { next += 1 }
                        return next
                    }
                    guard index < count else { return }
                    buffer[index] = buffer[index].sortedByName()
                }
            }
        }
        isSortedByName = true
    }

    /// A folder's entries, leaving it empty: for a walk that visits each folder once and frees the tree as it goes.
    package mutating func takeDirectory(_ index: Int) -> Directory {
        let directory = directories[index]
        directories[index] = Directory(error: directory.error)
        return directory
    }

    /// How many entries are regular files (links not followed): what resolution reserves room for.
    package var regularFileCount: Int {
        directories.reduce(0) { total, directory in
            total + directory.entries.lazy.filter { FileStatus.Kind(mode: $0.mode) == .regular }.count
        }
    }
}

extension FileTree.Directory {
    /// This folder with its entries sorted as `FileTree.sortedByName` describes.
    func sortedByName() -> FileTree.Directory {
        // Each name's length, negated for folders.
        let keys = entries.indices.map { position in
            let length = nameSpan(position).count - 1
            return FileStatus.Kind(mode: entries[position].mode) == .directory ? -length : length
        }
        let order = nameBytes.withUnsafeBufferPointer { base in
            nameStarts.withUnsafeBufferPointer { starts in
                keys.withUnsafeBufferPointer { keys in
                    // The first 16 bytes (a folder's `/` included) as two big-endian integers order most pairs
                    // without a memcmp, which makes sorting a large folder's names several times faster.
                    var prefixes = starts.indices.map { position in
                        SortPrefix(base.baseAddress! + Int(starts[position]), keys[position], position: position)
                    }
                    prefixes.sort { a, b in
                        if a.high != b.high { return a.high < b.high }
                        if a.low != b.low { return a.low < b.low }
                        return Self.precedes(
                            base.baseAddress! + Int(starts[a.position]), keys[a.position],
                            base.baseAddress! + Int(starts[b.position]), keys[b.position])
                    }
                    return prefixes.map(\.position)
                }
            }
        }
        var sorted = FileTree.Directory(error: error)
        sorted.nameBytes.reserveCapacity(nameBytes.count)
        sorted.nameStarts.reserveCapacity(count)
        sorted.entries.reserveCapacity(count)
        nameBytes.withUnsafeBufferPointer { base in
            for position in order {
                sorted.appendName(UnsafeBufferPointer(rebasing: base[nameSpan(position)]))
                sorted.entries.append(entries[position])
            }
        }
        return sorted
    }

    /// A name's first 16 bytes, followed by `/` for a folder and zeros, as big-endian integers: their order is the
    /// names' code-point order wherever they differ (a name holds no NUL).
    private struct SortPrefix {
        var high: UInt64
        var low: UInt64
        var position: Int

        init(_ name: UnsafePointer<UInt8>, _ key: Int, position: Int) {
            var bytes = (UInt64(0), UInt64(0))
            withUnsafeMutableBytes(of: &bytes) { raw in
                let count = min(abs(key), 16)
                raw.copyMemory(from: UnsafeRawBufferPointer(start: name, count: count))
                if key < 0 && count < 16 { raw[count] = UInt8(ascii: "/") }
            }
            high = UInt64(bigEndian: bytes.0)
            low = UInt64(bigEndian: bytes.1)
            self.position = position
        }
    }

    /// Code-point order of names `a` and `b`, each followed by `/` when it is a folder
    /// (`key`: the name's length, negated for a folder).
    private static func precedes(_ a: UnsafePointer<UInt8>, _ aKey: Int, _ b: UnsafePointer<UInt8>, _ bKey: Int) -> Bool
    {
        let aLength = abs(aKey)
        let bLength = abs(bKey)
        let order = memcmp(a, b, min(aLength, bLength))
        if order != 0 { return order < 0 }
        if aLength == bLength { return false }
        // One name is the other's start: the shorter ends, with `/` for a folder, where the longer goes on.
        if aLength < bLength { return aKey > 0 || UInt8(ascii: "/") < b[aLength] }
        return bKey < 0 && a[bLength] < UInt8(ascii: "/")
    }
}
