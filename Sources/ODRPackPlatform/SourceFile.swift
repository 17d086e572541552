#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file opened for reading into a pack, checked not to change while it is read: same size and time
/// before and after, and exactly `size` bytes in between.
package struct SourceFile {
    let descriptor: Int32
    /// The name in errors: the resource's path in its pack.
    package let name: String
    let size: Int64
    private let before: FileStamp

    /// - Parameter expected: the metadata planning saw, for a resource; nil for a file the build made itself.
    package init(path: FilePath, name: String, expected: FileStamp?, size: Int64) throws {
        descriptor = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw ODRPackError.system(.named(.open, name)) }
        self.name = name
        self.size = size
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            SystemCall.closeFile(descriptor)
            throw ODRPackError.system(.named(.stat, name), code)
        }
        before = FileStamp(info)
        if before.size != size
            || (expected.map { $0.modificationNanoseconds != before.modificationNanoseconds } ?? false)
        {
            SystemCall.closeFile(descriptor)
            throw ODRPackError.changed(.sincePlanned(name))
        }
        // Read-ahead advice matters past the kernel's own window (128 KiB); for a smaller file it is a call for nothing.
        if size > 128 << 10 { SystemCall.adviseSequentialRead(descriptor) }
    }

    package func close() { SystemCall.closeFile(descriptor) }

    /// The file's metadata when it was opened.
    package var stamp: FileStamp { before }

    package func changed() -> ODRPackError {
        .changed(.whileRead(name))
    }

    /// The whole file in `buffer` (at least `size` bytes long).
    package func readWhole(into buffer: UnsafeMutableRawBufferPointer) throws -> UnsafeRawBufferPointer {
        var total = 0
        try stream(into: buffer, accumulate: true) { total += $0.count }
        return UnsafeRawBufferPointer(rebasing: buffer[..<total])
    }

    /// Calls `body` with each chunk from the start; the file must end after exactly `size` bytes.
    package func stream(into buffer: UnsafeMutableRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void)
        throws
    {
        try stream(into: buffer, accumulate: false, body)
    }

    /// With `accumulate`, chunks fill the buffer one after another instead of each starting at its beginning.
    private func stream(
        into buffer: UnsafeMutableRawBufferPointer, accumulate: Bool,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var offset: Int64 = 0
        while true {
            let start = accumulate ? Int(offset) : 0
            // One byte past `size` is asked for, so a file that grew is noticed.
            let room = accumulate ? buffer.count - start : buffer.count
            guard room > 0 else {
                if offset == size, try read(at: offset, count: 1, into: buffer.baseAddress!) == 0 { return }
                throw changed()
            }
            let count = pread(descriptor, buffer.baseAddress! + start, room, off_t(offset))
            if count < 0 {
                if errno == EINTR { continue }
                throw ODRPackError.system(.named(.read, name))
            }
            if count == 0 { break }
            offset += Int64(count)
            if offset > size { throw changed() }
            try body(UnsafeRawBufferPointer(rebasing: buffer[start..<(start + count)]))
            // A read of a regular file that returns less than it asked for stopped at the end of the file: at that
            // moment the file held exactly `size` bytes, what a further read returning nothing would prove, with
            // one system call fewer a file (a million at the store's file count; docs/performance.md#issue-46).
            if count < room && offset == size { return }
        }
        guard offset == size else { throw changed() }
    }

    /// Up to `count` bytes at `offset` (fewer only at the end of the file).
    package func read(at offset: Int64, count: Int, into destination: UnsafeMutableRawPointer) throws -> Int {
        let done = SystemCall.readFully(descriptor, into: destination, count: count, at: offset)
        guard done >= 0 else { throw ODRPackError.system(.named(.read, name)) }
        return done
    }

    /// Throws when the file's size or time differ from when it was opened.
    package func checkUnchanged() throws {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ODRPackError.system(.named(.stat, name)) }
        let after = FileStamp(info)
        guard after.size == before.size, after.modificationNanoseconds == before.modificationNanoseconds else {
            throw changed()
        }
    }
}
