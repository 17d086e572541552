#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Copies a file the build wrote (an archive into `site/`), streaming it through one buffer.
package enum FileCopy {
    /// - Parameters:
    ///   - size: the source's size when the caller has just read it (a folder's walk); else it is read here.
    ///   - permissions: the copy's permission bits, set on the open file (no second lookup of its path); nil: 0644
    ///     before the umask.
    ///   - buffer: the buffer to copy through, when the caller copies many files; else one of 1 MiB is made.
    package static func copy(
        _ source: FilePath, to destination: FilePath, size: Int64? = nil, permissions: FileMode? = nil,
        buffer: ReadBuffer? = nil
    ) throws {
        guard let size = size ?? SystemCall.status(source)?.stamp.size else {
            throw ODRPackError.system(.stat, source)
        }
        let input = try SourceFile(path: source, name: source.text, expected: nil, size: size)
        defer { input.close() }
        let output = try OutputFile(path: destination)
        defer { output.close() }
        let buffer = buffer ?? ReadBuffer(size: 1 << 20)
        // The buffer's memory lives as long as the object: kept until the copy is done.
        try withExtendedLifetime(buffer) { try input.stream(into: buffer.bytes) { try output.write($0) } }
        if let permissions, fchmod(output.descriptor, mode_t(permissions)) != 0 {
            throw ODRPackError.system(.setMode, destination)
        }
    }
}
