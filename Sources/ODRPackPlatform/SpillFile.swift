import CPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A temporary file without a name, beside an output: bytes a writer keeps out of memory until it copies them back
/// (the zip writer's central directory, docs/build-output.md#bounded). It has no name from the start (O_TMPFILE where
/// the file system has it, else a name removed as soon as it is made), so it is gone with its descriptor whatever
/// happens to the process, and no later run finds it.
package final class SpillFile {
    private let descriptor: Int32
    /// The output this file serves: errors name it, since the spill has no name of its own.
    private let path: String
    /// Bytes appended so far.
    package private(set) var size: Int64 = 0

    /// A new empty file in the folder of `path` (on the output's file system, which has the room the output needs).
    /// - Throws: `ODRPackError.call` ("cannot write '<path>'") when none can be made.
    package convenience init(beside path: String) throws {
        let folder = path.splitAtLastSlash().map { $0.folder.isEmpty ? "/" : String($0.folder) } ?? "."
        if SystemCall.holdsNul(path) { throw ODRPackError.call(.named(.write, path), SystemError(EINVAL)) }
        var descriptor = odrpack_open_unlinked(folder)
        if descriptor < 0 {
            let name = TemporaryName.path(beside: path) + "-spill"
            descriptor = open(name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw ODRPackError.system(.named(.write, path)) }
            guard unlink(name) == 0 else {
                let failure = errno
                SystemCall.closeFile(descriptor)
                _ = unlink(name)
                throw ODRPackError.system(.named(.write, path), failure)
            }
        }
        self.init(descriptor: descriptor, path: path)
    }

    /// Takes over an open descriptor (a test's `/dev/full`): closed with this file.
    package init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { SystemCall.closeFile(descriptor) }

    /// Appends all of `bytes`.
    /// - Throws: `ODRPackError.call` ("cannot write '<path>'", ENOSPC on a full disk).
    package func append(_ bytes: UnsafeRawBufferPointer) throws {
        let failure = SystemCall.writeAll(descriptor, bytes, at: size)
        guard failure == 0 else { throw ODRPackError.system(.named(.write, path), failure) }
        size += Int64(bytes.count)
    }

    /// Passes every byte appended, in order, a `buffer` at a time.
    /// - Throws: `ODRPackError.call` when a read fails or comes back short.
    package func read(
        through buffer: UnsafeMutableRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var position: Int64 = 0
        while position < size {
            let count = SystemCall.readFully(
                descriptor, into: buffer.baseAddress!, count: Int(min(Int64(buffer.count), size - position)),
                at: position)
            guard count > 0 else { throw ODRPackError.system(.named(.readBack, path), count == 0 ? EIO : errno) }
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            position += Int64(count)
        }
    }
}
