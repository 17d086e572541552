import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// A `--json` document written as it is made, a chunk at a time (docs/build-output.md#bounded): the same bytes as
/// `JSONValue.object(members).serializedBytes()`, without the document's whole text, or a `JSONValue` for each of a
/// million files, ever in memory. Members are written in order; a large value is written straight into the sink, or
/// spliced from another object document (the build manifest's members).
package struct JSONObjectStream {
    /// Where the document's bytes go, a chunk at a time.
    private let target: DocumentSink.Target
    /// The bytes not yet handed to `target`.
    package var sink: DocumentSink
    /// Members written so far: each one after the first is preceded by `,\n`.
    private var count = 0

    package init(target: @escaping DocumentSink.Target) {
        self.target = target
        sink = DocumentSink(target: target)
    }

    /// The document's bytes in memory: for tests that compare them with the whole-document form.
    package static func bytes(_ write: (inout JSONObjectStream) throws -> Void) throws -> [UInt8] {
        let collected = Collected()
        var stream = JSONObjectStream { collected.bytes.append(contentsOf: $0) }
        try write(&stream)
        try stream.finish()
        return collected.bytes
    }

    /// `"key": value`, the value as `JSONValue` writes it inside an object at the top level.
    package mutating func member(_ key: String, _ value: JSONValue) throws {
        try member(key) { sink in
            sink.buffer.append(contentsOf: value.bytes(indent: 1, capacity: 0))
            try sink.flushIfFull()
        }
    }

    /// `"key": ` and then whatever `write` puts into the sink: a value as `JSONValue` writes it at nesting level 1.
    package mutating func member(_ key: String, writing write: (inout DocumentSink) throws -> Void) throws {
        sink.buffer.append(contentsOf: count == 0 ? Self.open : Self.separator)
        JSONValue.writeString(key, to: &sink.buffer)
        sink.buffer.append(contentsOf: Self.colon)
        count += 1
        try write(&sink)
        try sink.flushIfFull()
    }

    /// A one-line array of strings, `JSONValue.strings(values)`'s bytes, written a string at a time.
    package mutating func member(_ key: String, strings values: some Sequence<String>) throws {
        try member(key) { sink in
            sink.buffer.append(UInt8(ascii: "["))
            var first = true
            for value in values {
                if !first { sink.buffer.append(contentsOf: Self.commaSpace) }
                first = false
                JSONValue.writeString(value, to: &sink.buffer)
                try sink.flushIfFull()
            }
            sink.buffer.append(UInt8(ascii: "]"))
        }
    }

    /// Every member of the object document that `write` writes (as `serializedBytes` does: `{\n`, members at nesting
    /// level 1, `\n}\n`), as members of this one, in order: a build manifest streamed from its writer or its file.
    /// An empty or malformed document is an internal error (exit 2), never a broken document on stdout.
    package mutating func members(of write: (inout DocumentSink) throws -> Void) throws {
        if count == 0 {
            sink.buffer.append(contentsOf: Self.openObject)
        } else {
            sink.buffer.append(contentsOf: Self.commaNewline)
        }
        try sink.flush()
        let splice = Splice(target: target)
        var inner = DocumentSink { try splice.take($0) }
        try write(&inner)
        try inner.flush()
        guard splice.held == Self.end, splice.skipped == Self.openObject.count, splice.forwarded > 0 else {
            throw ODRPackError.output(.spliceNotAnObject)
        }
        count += 1
    }

    /// Ends the document (`}` and a newline) and hands on its last bytes.
    package mutating func finish() throws {
        sink.buffer.append(contentsOf: count == 0 ? Self.empty : Self.end)
        try sink.flush()
    }

    /// Forwards a document's bytes without its first two (`{\n`) and last three (`\n}\n`), which it holds back until it
    /// knows they are the last.
    private final class Splice {
        let target: DocumentSink.Target
        var skipped = 0
        var held: [UInt8] = []
        var forwarded = 0

        init(target: @escaping DocumentSink.Target) { self.target = target }

        func take(_ chunk: UnsafeRawBufferPointer) throws {
            var bytes = held
            bytes.append(contentsOf: chunk)
            let skip = min(JSONObjectStream.openObject.count - skipped, bytes.count)
            skipped += skip
            let keep = min(JSONObjectStream.end.count, bytes.count - skip)
            let forward = bytes.count - skip - keep
            if forward > 0 {
                try bytes.withUnsafeBytes { try target(UnsafeRawBufferPointer(rebasing: $0[skip..<skip + forward])) }
                forwarded += forward
            }
            held = Array(bytes[(bytes.count - keep)...])
        }
    }

    private final class Collected {
        var bytes: [UInt8] = []
    }

    private static let open = Array("{\n  ".utf8), separator = Array(",\n  ".utf8), colon = Array(": ".utf8)
    private static let commaSpace = Array(", ".utf8)
    private static let openObject = Array("{\n".utf8), commaNewline = Array(",\n".utf8)
    private static let empty = Array("{}\n".utf8), end = Array("\n}\n".utf8)
}
