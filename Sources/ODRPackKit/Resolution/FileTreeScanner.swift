import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a folder tree's metadata on every core: each folder is listed once, and its entries are
/// `lstat`ed in chunks, so one folder of 20,000 files is shared between the cores too.
/// Symbolic links are recorded, not followed; `.git` folders are recorded, not entered.
struct FileTreeScanner {
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Entries `lstat`ed by one task.
    static let chunk = 1024

    func scan(_ path: String) -> FileTree {
        let state = ScanState()
        state.paths.append(Array(path.utf8))
        state.directories.append(nil)
        state.tasks.append(.list(0))
        state.outstanding = 1
        DispatchQueue.concurrentPerform(iterations: max(1, jobs)) { _ in state.work() }
        let directories = state.directories.map { $0! }
        return FileTree(path: path, directories: directories,
                        fingerprint: state.clean ? Self.fingerprint(directories, digests: state.digests) : nil)
    }

    /// The folders' digests in tree order (each folder before its subfolders, by name).
    private static func fingerprint(_ directories: [FileTree.Directory], digests: [Int: [UInt8]]) -> String {
        var hasher = SHA256Hasher()
        func visit(_ index: Int) {
            digests[index]!.withUnsafeBytes { hasher.update($0) }
            for entry in directories[index].entries where entry.child >= 0 { visit(entry.child) }
        }
        visit(0)
        return hasher.finalize()
    }
}

/// Work shared by the scanning threads; every field is guarded by `condition`.
private final class ScanState: @unchecked Sendable {
    enum Task {
        /// Read a folder's names.
        case list(Int)
        /// `lstat` some entries of a listed folder.
        case stat(ListedDirectory, Range<Int>)
    }

    let condition = NSCondition()
    var tasks: [Task] = []
    /// Tasks queued or running: the scan ends when none are left.
    var outstanding = 0
    /// Absolute paths, by folder index.
    var paths: [[UInt8]] = []
    var directories: [FileTree.Directory?] = []
    var digests: [Int: [UInt8]] = [:]
    /// No symbolic links and nothing unreadable so far.
    var clean = true

    func work() {
        condition.lock()
        while true {
            if let task = tasks.popLast() {
                condition.unlock()
                run(task)
                condition.lock()
                outstanding -= 1
                if outstanding == 0 { condition.broadcast() }
            } else if outstanding == 0 {
                break
            } else {
                condition.wait()
            }
        }
        condition.unlock()
    }

    private func push(_ new: [Task]) {
        guard !new.isEmpty else { return }
        tasks += new
        outstanding += new.count
        condition.broadcast()
    }

    private func run(_ task: Task) {
        switch task {
        case let .list(index):
            condition.lock()
            let path = paths[index]
            condition.unlock()
            guard let listed = ListedDirectory(index: index, path: path) else {
                let error = errno
                condition.lock()
                directories[index] = FileTree.Directory(error: error)
                clean = false
                condition.unlock()
                return
            }
            let count = listed.count
            let ranges = stride(from: 0, to: count, by: FileTreeScanner.chunk).map { $0..<min(count, $0 + FileTreeScanner.chunk) }
            listed.remaining = max(1, ranges.count)
            if ranges.count > 1 {
                condition.lock()
                push(ranges.dropFirst().map { .stat(listed, $0) })
                condition.unlock()
            }
            statEntries(listed, ranges.first ?? 0..<0)
        case let .stat(listed, range):
            statEntries(listed, range)
        }
    }

    private func statEntries(_ listed: ListedDirectory, _ range: Range<Int>) {
        listed.statEntries(range)
        condition.lock()
        listed.remaining -= 1
        let last = listed.remaining == 0
        condition.unlock()
        if last { finish(listed) }
    }

    /// Runs once per folder, after all its entries are read: queues its subfolders and records it.
    private func finish(_ listed: ListedDirectory) {
        var (directory, subfolders, digest, isClean) = listed.finish()
        condition.lock()
        var new: [Task] = []
        for position in subfolders {
            let child = directories.count
            directory.entries[position].child = child
            directories.append(nil)
            var path = paths[listed.index]
            path.append(UInt8(ascii: "/"))
            path += directory.name(position)
            paths.append(path)
            new.append(.list(child))
        }
        directories[listed.index] = directory
        digests[listed.index] = digest
        if !isClean { clean = false }
        push(new)
        condition.unlock()
    }
}

/// A folder whose names are read, while its entries are being `lstat`ed; sorted once all are.
private final class ListedDirectory: @unchecked Sendable {
    let index: Int
    let handle: OpaquePointer
    /// The names in `readdir` order, each followed by a NUL, and where each starts.
    private var bytes: [UInt8] = []
    private var starts: [Int] = []
    /// The `lstat` results in `readdir` order, written by several threads at distinct positions.
    private let entries: UnsafeMutableBufferPointer<FileTree.Entry>
    /// Chunks not yet `lstat`ed; guarded by the scan's lock.
    var remaining = 0

    var count: Int { starts.count }

    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    init?(index: Int, path: [UInt8]) {
        let descriptor = (path + [0]).withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self),
                 O_RDONLY | O_DIRECTORY | O_CLOEXEC | (index == 0 ? 0 : O_NOFOLLOW))
        }
        guard descriptor >= 0 else { return nil }
        guard let handle = fdopendir(descriptor) else {
            close(descriptor)
            return nil
        }
        self.index = index
        self.handle = handle
        while let entry = readdir(handle) {
            let name = UnsafeRawPointer(entry).advanced(by: Self.nameOffset).assumingMemoryBound(to: UInt8.self)
            let length = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
            if name[0] == UInt8(ascii: ".") && (length == 1 || (length == 2 && name[1] == UInt8(ascii: "."))) { continue }
            starts.append(bytes.count)
            bytes.append(contentsOf: UnsafeBufferPointer(start: name, count: length + 1))
        }
        entries = .allocate(capacity: starts.count)
        entries.initialize(repeating: FileTree.Entry(mode: 0, stamp: FileStamp(size: 0, modificationNanoseconds: 0, changeNanoseconds: 0,
                                                                                 inode: 0, device: 0), child: -1))
    }

    deinit {
        entries.deallocate()
    }

    func statEntries(_ range: Range<Int>) {
        let descriptor = dirfd(handle)
        var info = stat()
        bytes.withUnsafeBufferPointer { base in
            for position in range {
                let name = UnsafeRawPointer(base.baseAddress! + starts[position]).assumingMemoryBound(to: CChar.self)
                if fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 {
                    entries[position] = FileTree.Entry(mode: info.st_mode, stamp: FileStamp(info), child: -1)
                }
            }
        }
    }

    /// The folder sorted, the positions of the subfolders to scan, its digest, and whether it is clean.
    /// A folder sorts as its name plus `/`: then visiting folders in order lists every path in code-point order.
    func finish() -> (FileTree.Directory, [Int], [UInt8], Bool) {
        closedir(handle)
        // Each name's length, negated for folders.
        let keys = starts.indices.map { position in
            let length = (position + 1 < starts.count ? starts[position + 1] : bytes.count) - starts[position] - 1
            return entries[position].mode & S_IFMT == S_IFDIR ? -length : length
        }
        let order = bytes.withUnsafeBufferPointer { base in
            starts.withUnsafeBufferPointer { starts in
                keys.withUnsafeBufferPointer { keys in
                    starts.indices.sorted { a, b in
                        Self.precedes(base.baseAddress! + starts[a], keys[a], base.baseAddress! + starts[b], keys[b])
                    }
                }
            }
        }
        var directory = FileTree.Directory()
        directory.nameBytes.reserveCapacity(bytes.count)
        directory.nameStarts.reserveCapacity(count)
        directory.entries.reserveCapacity(count)
        var subfolders: [Int] = []
        var isClean = true
        // Each entry's name, NUL, then six 64-bit fields: no padding bytes reach the digest.
        var record: [UInt8] = []
        record.reserveCapacity(bytes.count + count * 48)
        for position in order {
            let entry = entries[position]
            let end = position + 1 < starts.count ? starts[position + 1] : bytes.count
            let name = bytes[starts[position]..<end]
            directory.nameStarts.append(directory.nameBytes.count)
            directory.nameBytes += name
            directory.entries.append(entry)
            record += name
            let type = entry.mode & S_IFMT
            var fields = (UInt64(entry.mode), UInt64(bitPattern: entry.stamp.size), UInt64(bitPattern: entry.stamp.modificationNanoseconds),
                          UInt64(bitPattern: entry.stamp.changeNanoseconds), entry.stamp.inode, entry.stamp.device)
            if type == S_IFDIR {
                // Git rewrites its folder all the time, and nothing in it is ever packed: only its name counts.
                if name.elementsEqual(".git\0".utf8) {
                    fields = (UInt64(type), 0, 0, 0, 0, 0)
                } else {
                    subfolders.append(directory.entries.count - 1)
                }
            } else if type == S_IFLNK || entry.mode == 0 {
                isClean = false
            }
            withUnsafeBytes(of: &fields) { record.append(contentsOf: $0) }
        }
        var hasher = SHA256()
        hasher.update(data: record)
        return (directory, subfolders, Array(hasher.finalize()), isClean)
    }

    /// Code-point order of names `a` and `b`, each followed by `/` when it is a folder
    /// (`key`: the name's length, negated for a folder).
    private static func precedes(_ a: UnsafePointer<UInt8>, _ aKey: Int, _ b: UnsafePointer<UInt8>, _ bKey: Int) -> Bool {
        let aLength = abs(aKey), bLength = abs(bKey)
        let order = memcmp(a, b, min(aLength, bLength))
        if order != 0 { return order < 0 }
        if aLength == bLength { return false }
        // One name is the other's start: the shorter ends, with `/` for a folder, where the longer goes on.
        if aLength < bLength { return aKey > 0 || UInt8(ascii: "/") < b[aLength] }
        return bKey < 0 && a[bLength] < UInt8(ascii: "/")
    }
}
