import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a folder tree's metadata on every core: each folder is listed once, and its entries are
/// `lstat`ed and hashed in chunks while it is still being listed, so one folder of 20,000 files is shared
/// between the cores too. Entries stay in `readdir` order: the up-to-date check only needs the fingerprint,
/// and sorts (`FileTree.sortedByName`) only when it must plan.
/// Symbolic links are recorded, not followed; `.git` folders are recorded, not entered.
package struct FileTreeScanner {
    var jobs = SystemCall.processorCount

    package init(jobs: Int = SystemCall.processorCount) { self.jobs = jobs }
    /// Entries `lstat`ed and hashed by one task.
    static let chunk = 1024

    /// - Parameter descending: whether to enter a subfolder, given its path relative to `path` as UTF-8 bytes; a
    ///   folder it refuses is recorded with no child (`child` stays -1) and never listed.
    package func scan(_ path: String, descending: (@Sendable ([UInt8]) -> Bool)? = nil) -> FileTree {
        let state = ScanState()
        state.descending = descending
        state.rootLength = path.utf8.count + 1
        state.paths.append(Array(path.utf8))
        state.directories.append(nil)
        state.tasks.append(.list(0))
        state.outstanding = 1
        DispatchQueue.concurrentPerform(iterations: max(1, jobs)) { _ in state.work() }
        let directories = state.directories.map { $0! }
        return FileTree(
            path: path, directories: directories,
            fingerprint: state.clean ? Self.fingerprint(directories, digests: state.digests) : nil)
    }

    /// The folders' digests in tree order (each folder before its subfolders, in `readdir` order, which is
    /// stable while a folder is unchanged).
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

/// Work shared by the scanning threads.
/// `@unchecked Sendable` because: every mutable field is read and written only with `condition` locked.
private final class ScanState: @unchecked Sendable {
    enum Task {
        /// Read a folder's names.
        case list(Int)
        /// `lstat` one chunk of a folder's entries.
        case stat(ListedDirectory, NameChunk)
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
    /// Which subfolders to enter (all without it), and the length of the root's path and its "/".
    var descending: (@Sendable ([UInt8]) -> Bool)?
    var rootLength = 0

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
        case .list(let index):
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
            // The reading itself counts as one unit, so the folder cannot finish before its last name is read.
            listed.remaining = 1
            // Full chunks go to the other cores while this one reads on: reading a big folder's names takes
            // time of its own (docs/performance.md#where-the-time-goes).
            let last = listed.read { chunk in
                condition.lock()
                listed.remaining += 1
                push([.stat(listed, chunk)])
                condition.unlock()
            }
            statEntries(listed, last)
        case .stat(let listed, let chunk):
            statEntries(listed, chunk)
        }
    }

    private func statEntries(_ listed: ListedDirectory, _ chunk: NameChunk) {
        chunk.statEntries(in: listed.descriptor)
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
            if let descending {
                var relative = listed.index == 0 ? [] : Array(paths[listed.index].dropFirst(rootLength))
                if !relative.isEmpty { relative.append(UInt8(ascii: "/")) }
                relative += directory.name(position)
                guard descending(relative) else { continue }
            }
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

/// Up to `FileTreeScanner.chunk` names of one folder, in `readdir` order, their `lstat` results and digest.
/// Each chunk owns its bytes, so one thread can `lstat` it while another reads the next.
/// `@unchecked Sendable` because: the reading thread fills `names` before it queues the chunk (under the scan's
/// lock), then only the one thread that took the chunk's task writes it, and `finish` reads it after that task is done.
private final class NameChunk: @unchecked Sendable {
    /// The names as read; their entries are added by the one thread that `lstat`s the chunk.
    var names = FileTree.Directory()
    var digest: [UInt8] = []
    /// No symbolic links and nothing vanished.
    var isClean = true

    init() {
        names.nameBytes.reserveCapacity(FileTreeScanner.chunk * 24)
        names.nameStarts.reserveCapacity(FileTreeScanner.chunk)
    }

    func statEntries(in descriptor: Int32) {
        var info = stat()
        var entries: [FileTree.Entry] = []
        entries.reserveCapacity(names.count)
        // Each entry's name, NUL, then six 64-bit fields: no padding bytes reach the digest.
        var record: [UInt8] = []
        record.reserveCapacity(names.nameBytes.count + names.count * 48)
        names.nameBytes.withUnsafeBufferPointer { base in
            for position in 0..<names.count {
                let name = UnsafeBufferPointer(rebasing: base[names.nameSpan(position)])
                var entry = FileTree.Entry(
                    mode: 0,
                    stamp: FileStamp(
                        size: 0, modificationNanoseconds: 0, changeNanoseconds: 0,
                        inode: 0, device: 0), child: -1)
                // An entry that vanished or cannot be read keeps mode 0 (and its errno), which turns the fingerprint off.
                if fstatat(
                    descriptor, UnsafeRawPointer(name.baseAddress!).assumingMemoryBound(to: CChar.self), &info,
                    AT_SYMLINK_NOFOLLOW) == 0
                {
                    entry = FileTree.Entry(mode: info.st_mode, stamp: FileStamp(info), child: -1)
                } else {
                    entry.error = errno
                }
                entries.append(entry)
                record.append(contentsOf: name)
                let type = entry.mode & S_IFMT
                var fields = (
                    UInt64(entry.mode), UInt64(bitPattern: entry.stamp.size),
                    UInt64(bitPattern: entry.stamp.modificationNanoseconds),
                    UInt64(bitPattern: entry.stamp.changeNanoseconds), entry.stamp.inode, entry.stamp.device
                )
                if type == S_IFDIR && VersionControl.isGit(UnsafeBufferPointer(rebasing: name.dropLast())) {
                    // Git rewrites its folder all the time, and nothing in it is ever packed: only its name counts.
                    fields = (UInt64(type), 0, 0, 0, 0, 0)
                } else if type == S_IFLNK || entry.mode == 0 {
                    isClean = false
                }
                withUnsafeBytes(of: &fields) { record.append(contentsOf: $0) }
            }
        }
        names.entries = entries
        var hasher = SHA256()
        hasher.update(data: record)
        digest = Array(hasher.finalize())
    }
}

/// A folder being read and `lstat`ed chunk by chunk; put together once all its chunks are done.
/// `@unchecked Sendable` because: `chunks` and `readError` are written by the one reading thread and read by `finish`
/// after it; `remaining` only under the scan's lock; the descriptor is only read, by `fstatat`, which is thread-safe.
private final class ListedDirectory: @unchecked Sendable {
    let index: Int
    private let handle: DirectoryHandle
    /// The open folder, for `fstatat`: reading names on and `lstat`ing through it may happen at once.
    let descriptor: Int32
    /// Filled by the reading thread; read by `finish`, which runs after the reading is done.
    private var chunks: [NameChunk] = []
    /// Units not yet done (the reading and each queued chunk); guarded by the scan's lock.
    var remaining = 0
    /// errno when `readdir` failed before the end of the folder.
    private var readError: Int32 = 0

    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    init?(index: Int, path: [UInt8]) {
        let descriptor = (path + [0]).withUnsafeBufferPointer {
            open(
                UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self),
                O_RDONLY | O_DIRECTORY | O_CLOEXEC | (index == 0 ? 0 : O_NOFOLLOW))
        }
        guard descriptor >= 0 else { return nil }
        guard let handle = fdopendir(descriptor) else {
            close(descriptor)
            return nil
        }
        self.index = index
        self.handle = handle
        self.descriptor = descriptor
    }

    /// Reads every name, handing each full chunk to `queue`; returns the last chunk (possibly empty)
    /// for the caller to `lstat`.
    func read(queue: (NameChunk) -> Void) -> NameChunk {
        var chunk = NameChunk()
        while true {
            // readdir returns nil both at the end and on an error: only errno tells them apart.
            errno = 0
            guard let entry = readdir(handle) else {
                readError = errno
                break
            }
            let name = UnsafeRawPointer(entry).advanced(by: Self.nameOffset).assumingMemoryBound(to: UInt8.self)
            let length = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
            if name[0] == UInt8(ascii: ".") && (length == 1 || (length == 2 && name[1] == UInt8(ascii: "."))) {
                continue
            }
            if chunk.names.count == FileTreeScanner.chunk {
                chunks.append(chunk)
                queue(chunk)
                chunk = NameChunk()
            }
            chunk.names.appendName(UnsafeBufferPointer(start: name, count: length + 1))
        }
        chunks.append(chunk)
        return chunk
    }

    /// The folder in `readdir` order, the positions of the subfolders to scan, its digest, and whether it is clean.
    func finish() -> (FileTree.Directory, [Int], [UInt8], Bool) {
        closedir(handle)
        var directory = FileTree.Directory()
        var hasher = SHA256()
        var isClean = readError == 0
        // A folder that could not be read to its end is reported whole as unreadable, never half-listed.
        guard readError == 0 else {
            directory.error = readError
            return (directory, [], [], false)
        }
        // At its final size at once: a folder of 50,000 names grown by doubling would hold up to twice the room.
        directory.nameBytes.reserveCapacity(chunks.reduce(0) { $0 + $1.names.nameBytes.count })
        directory.nameStarts.reserveCapacity(chunks.reduce(0) { $0 + $1.names.count })
        directory.entries.reserveCapacity(chunks.reduce(0) { $0 + $1.names.count })
        for chunk in chunks {
            directory.append(contentsOf: chunk.names)
            chunk.names = FileTree.Directory()
            hasher.update(data: chunk.digest)
            if !chunk.isClean { isClean = false }
        }
        var subfolders: [Int] = []
        for position in 0..<directory.count where directory.entries[position].mode & S_IFMT == S_IFDIR {
            if !directory.name(position).withUnsafeBufferPointer(VersionControl.isGit) { subfolders.append(position) }
        }
        return (directory, subfolders, Array(hasher.finalize()), isClean)
    }
}
