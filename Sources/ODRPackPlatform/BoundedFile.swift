#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file odrpack reads whole (a manifest, a key, a record): never more than a bound, so `/dev/zero`, a FIFO that
/// never ends or a huge file given by mistake fails at once with a message instead of filling memory
/// (docs/build-output.md#bounded). Read with `read`, so a pipe or a device works as a file does.
package enum BoundedFile {
    /// The bytes of the file at `path`, at most `limit` of them.
    /// - Parameter what: what the file is, for messages ("the manifest").
    /// - Throws: `ODRPackError` (exit 2): the file cannot be opened or read, or holds more than `limit` bytes.
    package static func read(_ path: FilePath, limit: Int, what: String) throws -> [UInt8] {
        let descriptor = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw ODRPackError.system(.readKind(what), path) }
        defer { SystemCall.closeFile(descriptor) }
        return try read(descriptor, path, limit: limit, what: what)
    }

    /// The bytes of the file at `path`, or nil when there is none (ENOENT), for a file a step may or may not have
    /// left (a build folder's commit record, docs/build-output.md#atomic). Any other failure (EACCES, EISDIR, EIO) is
    /// an error, never "absent": reading it as absent would forget what the file says.
    /// - Throws: `ODRPackError.io` with the path and the errno, or as `read` does (exit 2).
    package static func readIfPresent(_ path: FilePath, limit: Int, what: String) throws -> [UInt8]? {
        let descriptor = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            let error = SystemError.last
            if error.isMissing { return nil }
            throw ODRPackError.io(.readKind(what), path: path, error)
        }
        defer { SystemCall.closeFile(descriptor) }
        return try read(descriptor, path, limit: limit, what: what)
    }

    /// Reads the open `descriptor` to its end; a failed read is `ODRPackError.io` with the path and the errno.
    private static func read(_ descriptor: Int32, _ path: FilePath, limit: Int, what: String) throws -> [UInt8] {
        if let size = SystemCall.stamp(ofOpen: descriptor)?.size, size > limit { throw tooLarge(path, limit, what) }
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let got = readChunk(descriptor, chunk.baseAddress!, chunk.count)
            if got < 0 {
                if errno == EINTR { continue }
                throw ODRPackError.system(.readKind(what), path)
            }
            if got == 0 { return bytes }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<got]))
            if bytes.count > limit { throw tooLarge(path, limit, what) }
        }
    }

    private static func tooLarge(_ path: FilePath, _ limit: Int, _ what: String) -> ODRPackError {
        .fileTooLarge(what, path: path, limit: limit)
    }
}

/// `read(2)`, named apart from `BoundedFile.read`.
private func readChunk(_ descriptor: Int32, _ destination: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, destination, count)
}
