import ODRPackPlatform

extension UpToDateReplay {
    /// odrpack-manifest.json as the last build wrote it, for the `build --json` document that starts with its members,
    /// opened while the build holds its lock and read a chunk at a time when printed (docs/build-output.md#bounded:
    /// the file is 194 MB at a million files); nil when it cannot be read as written (then the build plans instead of
    /// replaying).
    func manifestDocument() -> StreamedDocument? { openedDocument(manifestPath) }
}

/// The object document at `path` (odrpack-manifest.json), opened now and read a chunk at a time when written; nil when
/// it cannot be opened or does not read as an object document.
func openedDocument(_ path: String) -> StreamedDocument? { openedDocument(FilePath(path)) }

/// `openedDocument(_:)` of a path kept as its bytes (the output folder's manifest).
func openedDocument(_ path: FilePath) -> StreamedDocument? {
    guard let file = OpenedManifest(path) else { return nil }
    return StreamedDocument { sink in try file.write(to: &sink) }
}

/// A document file held open (and closed with its last user): what it holds is what was there when it was opened, even
/// after a later build renames another file over it.
private final class OpenedManifest: @unchecked Sendable {
    let descriptor: Int32
    let size: Int64

    /// Nil unless the file opens and reads as an object document: `{\n` first, `\n}\n` last.
    init?(_ path: FilePath) {
        guard case .success(let descriptor) = SystemCall.openForReading(path) else { return nil }
        guard let size = Self.objectDocumentSize(descriptor, path) else {
            SystemCall.closeFile(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.size = size
    }

    private static func objectDocumentSize(_ descriptor: Int32, _ path: FilePath) -> Int64? {
        guard let status = SystemCall.status(path), status.kind == .regular, status.stamp.size >= 5 else { return nil }
        let size = status.stamp.size
        var head = [UInt8](repeating: 0, count: 2)
        var tail = [UInt8](repeating: 0, count: 3)
        let gotHead = head.withUnsafeMutableBytes {
            SystemCall.readFully(descriptor, into: $0.baseAddress!, count: 2, at: 0)
        }
        let gotTail = tail.withUnsafeMutableBytes {
            SystemCall.readFully(descriptor, into: $0.baseAddress!, count: 3, at: size - 3)
        }
        guard gotHead == 2, gotTail == 3, head == Array("{\n".utf8), tail == Array("\n}\n".utf8) else { return nil }
        return size
    }

    deinit { SystemCall.closeFile(descriptor) }

    /// The file's bytes, a chunk at a time; a file that changed length since it was opened is an error.
    func write(to sink: inout DocumentSink) throws {
        var offset: Int64 = 0
        while offset < size {
            let count = Int(min(Int64(DocumentSink.chunkSize), size - offset))
            let start = sink.buffer.count
            sink.buffer.append(contentsOf: repeatElement(0, count: count))
            let got = sink.buffer.withUnsafeMutableBytes {
                SystemCall.readFully(descriptor, into: $0.baseAddress! + start, count: count, at: offset)
            }
            guard got == count else {
                throw ODRPackError.changed(.buildManifestWhileReplayed)
            }
            offset += Int64(count)
            try sink.flushIfFull()
        }
    }
}
