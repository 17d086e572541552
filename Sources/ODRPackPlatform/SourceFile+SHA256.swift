extension SourceFile {
    /// The one "open, stream, hash" loop: opens `path`, reads it to its end through `buffer`, showing each chunk to
    /// `body` as it is hashed, and closes it. `size` is what the file must hold; nil takes it from `stat` now. With
    /// `expected` (a resource, as planning saw it) the file must also still be that after the read. Without `buffer`,
    /// it reads through a 1 MiB one of its own.
    package static func sha256(
        of path: FilePath, name: String? = nil, expected: FileStamp? = nil, size: Int64? = nil,
        buffer: ReadBuffer? = nil, _ body: (UnsafeRawBufferPointer) throws -> Void = { _ in }
    ) throws -> (size: Int64, sha256: String) {
        let buffer = buffer ?? ReadBuffer(size: 1 << 20)
        let size = try size ?? SystemCall.requireStatus(path, .stat).stamp.size
        let file = try SourceFile(path: path, name: name ?? path.text, expected: expected, size: size)
        defer { file.close() }
        var hasher = SHA256Hasher()
        try withExtendedLifetime(buffer) {
            try file.stream(into: buffer.bytes) { chunk in
                hasher.update(chunk)
                try body(chunk)
            }
        }
        if expected != nil { try file.checkUnchanged() }
        return (size, hasher.finalize())
    }
}
