import ODRPackBuildFormat
import ODRPackPlatform

/// The odrpack-manifest.json that the previous build into a folder wrote, opened before this build retires it, when
/// it is still exactly that file (the metadata the build recorded): packs whose part is unchanged copy it from there.
/// `@unchecked Sendable` because: after `init` it is only read, with `pread`, which is thread-safe.
final class PreviousManifestParts: @unchecked Sendable {
    private let file: SourceFile
    private let parts: [String: BuildState.ManifestPart]

    init?(path: FilePath, previous: BuildState) {
        let parts = previous.packs.compactMapValues(\.manifestPart)
        guard !parts.isEmpty, let recorded = previous.outputs[BuildManifest.fileName],
            let file = try? SourceFile(
                path: path, name: BuildManifest.fileName, expected: recorded, size: recorded.size)
        else { return nil }
        guard file.stamp == recorded else {
            file.close()
            return nil
        }
        self.file = file
        self.parts = parts
    }

    deinit { file.close() }

    /// Copies pack `id`'s part into `sink` a chunk at a time, when the previous build wrote it with the same key, and
    /// says whether it did; false (nothing written) otherwise, and the part is written anew. A read that fails part way
    /// throws: the document is then unfinished, and the commit that writes it rolls back.
    func copyPart(id: String, key: String, into sink: inout DocumentSink) throws -> Bool {
        guard let part = parts[id], part.key == key, part.length > 0, part.offset <= file.stamp.size - part.length
        else { return false }
        var offset = part.offset
        let end = part.offset + part.length
        while offset < end {
            let count = Int(min(Int64(DocumentSink.chunkSize), end - offset))
            let start = sink.buffer.count
            sink.buffer.append(contentsOf: repeatElement(0, count: count))
            let read = try sink.buffer.withUnsafeMutableBytes {
                try file.read(at: offset, count: count, into: $0.baseAddress! + start)
            }
            guard read == count else {
                throw ODRPackError.changed(.buildManifestWhileCopied)
            }
            offset += Int64(count)
            try sink.flushIfFull()
        }
        return true
    }

    /// Pack `id`'s part, when the previous build wrote it with the same key; nil otherwise (it is written anew).
    func part(id: String, key: String) -> [UInt8]? {
        guard let part = parts[id], part.key == key, part.length > 0, part.offset <= file.stamp.size - part.length
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(part.length))
        let read = bytes.withUnsafeMutableBytes {
            try? file.read(at: part.offset, count: $0.count, into: $0.baseAddress!)
        }
        return read == bytes.count ? bytes : nil
    }
}
