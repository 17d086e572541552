import ODRPackPlatform

/// The file records of a state file as they lie on disk (or, for a state parsed from memory, in its bytes), checked
/// whole when the state was read (`BuildState.read`: every record, the paths' order, the CRC) and read again a window
/// at a time by `StateRecordReader` wherever a build merges them with its files. A build of a million files never
/// holds them whole (docs/build-output.md#incremental): the state is only ever replaced by a rename, so the open
/// descriptor keeps reading the bytes that were checked.
final class StoredRecords: Sendable {
    enum Source: Sendable {
        /// An open state file, closed when nothing uses it any more.
        case descriptor(OpenFile)
        case bytes([UInt8])
    }

    /// A descriptor open for reading, closed with the last reference to it.
    final class OpenFile: Sendable {
        let descriptor: Int32
        /// The file's metadata when it was opened, before its records were checked.
        let openedStamp: FileStamp?

        init(_ descriptor: Int32) {
            self.descriptor = descriptor
            openedStamp = SystemCall.stamp(ofOpen: descriptor)
        }

        /// Whether the file is still as it was when its records were checked: odrpack replaces a state only by a
        /// rename, but another program (a sync tool, `cp` over it) could write it in place, and records read after
        /// such a write were never checked. A changed file gives no records (the build reads every file again).
        var isUnchanged: Bool {
            guard let openedStamp else { return false }
            return SystemCall.stamp(ofOpen: descriptor) == openedStamp
        }

        deinit { SystemCall.closeFile(descriptor) }
    }

    let source: Source
    /// Where the first record starts and where the last one ends.
    let start: Int64
    let end: Int64
    let count: Int

    init(source: Source, start: Int64, end: Int64, count: Int) {
        self.source = source
        self.start = start
        self.end = end
        self.count = count
    }

    /// Reads up to `count` bytes at `offset` into `destination`; returns how many it read (fewer only at the end, or
    /// on an error). Nothing when the file changed since it was opened (`OpenFile.isUnchanged`, asked after the read,
    /// so the bytes given are the ones checked): the reader takes that as damage and ends its merge there.
    func read(into destination: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int {
        switch source {
        case .descriptor(let file):
            let got = max(0, SystemCall.readFully(file.descriptor, into: destination, count: count, at: offset))
            return file.isUnchanged ? got : 0
        case .bytes(let bytes):
            guard offset >= 0, offset < Int64(bytes.count) else { return 0 }
            let available = min(count, bytes.count - Int(offset))
            bytes.withUnsafeBytes { raw in
                destination.copyMemory(from: raw.baseAddress! + Int(offset), byteCount: available)
            }
            return available
        }
    }
}
