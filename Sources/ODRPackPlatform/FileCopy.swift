/// Copies a file the build wrote (an archive into `site/`), streaming it through one buffer.
package enum FileCopy {
    package static func copy(_ source: String, to destination: String) throws {
        guard let stamp = SystemCall.status(source)?.stamp else { throw ODRPackError.system("cannot stat '\(source)'") }
        let input = try SourceFile(path: source, name: source, expected: nil, size: stamp.size)
        defer { input.close() }
        let output = try OutputFile(path: destination)
        defer { output.close() }
        let buffer = ReadBuffer(size: 1 << 20)
        try input.stream(into: buffer.bytes) { try output.write($0) }
    }
}
