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
