import ODRPackCore
import ODRPackPlatform

/// A resource that a clean build's writer found to be executable code as it read it
/// (`BuildOptions.checksContentWhileWriting`). The build stops; its pipeline plans again with planning's own check
/// and reports what that finds.
struct ExecutableContentFound: Error {
    /// The resource's path in its pack.
    let name: String
}

extension SourceFile {
    /// Planning's executable-content check (`ExecutableContentCheck.executableKind`) of this file: the same bytes, read
    /// by the writer that archives it instead of by an open of its own (docs/performance.md#the-content-check).
    /// - Parameter start: the file's first bytes when the caller has read them already; else they are read here.
    /// - Throws: `ExecutableContentFound` for executable code; a read error as `read(at:count:into:)` throws it.
    func checkNotExecutable(start: UnsafeRawBufferPointer? = nil) throws {
        let head =
            try start.map { Array($0.prefix(ExecutableContentCheck.headSize)) }
            ?? bytes(at: 0, count: ExecutableContentCheck.headSize)
        let kind = ExecutableContentCheck.executableKind(head) { offset in
            guard let signature = try? bytes(at: Int64(offset), count: 4), signature.count == 4 else { return nil }
            return signature
        }
        if kind != nil { throw ExecutableContentFound(name: name) }
    }

    /// Up to `count` bytes at `offset`: fewer at the end of the file.
    private func bytes(at offset: Int64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try bytes.withUnsafeMutableBytes { try read(at: offset, count: count, into: $0.baseAddress!) }
        bytes.removeLast(count - got)
        return bytes
    }
}
