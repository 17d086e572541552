#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a streamed document's bytes go, about a chunk at a time (docs/build-output.md#bounded): a writer appends to
/// `buffer` and calls `flushIfFull()` between items, so a document of any size costs one chunk of memory, never its
/// whole text. What takes the chunks decides what streaming means: a file being written, a file being compared, or
/// memory for a small document.
package struct DocumentSink {
    /// How much a sink holds before it hands its bytes on.
    package static let chunkSize = 1 << 20

    /// The bytes not yet handed on. Writers append here directly (the JSON and plist writers write into a `[UInt8]`).
    package var buffer: [UInt8] = []
    /// How many bytes were handed on before `buffer`.
    package private(set) var flushedCount: Int64 = 0
    /// Nil for a sink that keeps everything (`bytes`).
    private let target: Target?

    /// Takes each chunk; its error ends the document.
    package typealias Target = (UnsafeRawBufferPointer) throws -> Void

    package init(target: @escaping Target) {
        self.target = target
        buffer.reserveCapacity(Self.chunkSize + Self.chunkSize / 4)
    }

    private init() { target = nil }

    /// Every byte written so far: where the next one goes in the document.
    package var count: Int64 { flushedCount + Int64(buffer.count) }

    package mutating func append(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        try flushIfFull()
    }

    /// Hands the buffer on once it holds a chunk.
    @inline(__always)
    package mutating func flushIfFull() throws {
        if buffer.count >= Self.chunkSize, target != nil { try flush() }
    }

    /// Hands on whatever the buffer holds: a writer's last call.
    package mutating func flush() throws {
        guard !buffer.isEmpty, let target else { return }
        try buffer.withUnsafeBytes { try target($0) }
        flushedCount += Int64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    /// A document's bytes in memory: for a small document, or a test that compares a streamed one with the in-memory form.
    package static func bytes(_ write: (inout DocumentSink) throws -> Void) rethrows -> [UInt8] {
        var sink = DocumentSink()
        try write(&sink)
        return sink.buffer
    }
}

/// A document written by a function into a sink, so it can be written to a file, compared with one, or collected, and
/// only ever a chunk of it held.
package struct StreamedDocument: Sendable {
    package let write: @Sendable (inout DocumentSink) throws -> Void

    package init(_ write: @escaping @Sendable (inout DocumentSink) throws -> Void) { self.write = write }

    /// A document whose bytes are already in memory.
    package init(bytes: [UInt8]) {
        self.init { sink in try sink.append(bytes) }
    }

    /// Its bytes in memory (small documents, tests).
    package func bytes() throws -> [UInt8] {
        try DocumentSink.bytes(write)
    }

    /// How the file at `path` compares with the document.
    package enum Comparison: Equatable, Sendable {
        case same
        /// Other bytes, or a file that is not a regular one.
        case differs
        case missing
        /// The file could not be read (errno).
        case unreadable(Int32)
    }

    /// The document against the file at `path` (a link followed, as reading the file would), a chunk at a time: neither
    /// is ever held whole, and comparing stops at the first chunk that differs.
    package func compare(withFileAt path: FilePath) -> Comparison {
        guard let status = SystemCall.status(path, followingLinks: true) else { return .missing }
        guard status.kind == .regular else { return .differs }
        let descriptor: Int32
        switch SystemCall.openForReading(path) {
        case .failure(let error): return .unreadable(error.code)
        case .success(let opened): descriptor = opened
        }
        defer { _ = SystemCall.closeFile(descriptor) }
        let size = status.stamp.size
        var result = Comparison.same
        var offset: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: DocumentSink.chunkSize * 2, alignment: 16)
        defer { buffer.deallocate() }
        var sink = DocumentSink { chunk in
            guard offset + Int64(chunk.count) <= size else { throw Stop(result: .differs) }
            var done = 0
            while done < chunk.count {
                let count = min(buffer.count, chunk.count - done)
                let got = SystemCall.readFully(descriptor, into: buffer.baseAddress!, count: count, at: offset)
                guard got == count else { throw Stop(result: got < 0 ? .unreadable(errno) : .differs) }
                guard memcmp(buffer.baseAddress!, chunk.baseAddress! + done, count) == 0 else {
                    throw Stop(result: .differs)
                }
                done += count
                offset += Int64(count)
            }
        }
        do {
            try write(&sink)
            try sink.flush()
            if offset != size { result = .differs }
        } catch let stop as Stop {
            result = stop.result
        } catch {
            // The document itself could not be made: it is not what the file holds.
            result = .differs
        }
        return result
    }

    /// Ends a comparison early.
    private struct Stop: Error {
        let result: Comparison
    }
}
