import ODRPackPlatform

/// The central directory of a zip this project wrote, found from its end: where each entry's local header is and
/// how its bytes are stored. A build reads it from the last build's archive to copy unchanged entries.
/// Anything it does not expect (a comment, a split archive, numbers out of bounds) is a `FormatError`.
package struct ZipCentralDirectory {
    package struct Entry: Equatable, Sendable {
        /// The name as text: a name that is not UTF-8 (an IPA's `caf\xE9.txt`) is shown with `\xNN` for its bytes; use
        /// `nameBytes` to make the file.
        package let name: String
        /// The name's bytes when they are not UTF-8, else nil (`name` is them): a build reads a million names here.
        var otherNameBytes: [UInt8]? = nil
        /// The name's bytes as the archive holds them.
        package var nameBytes: [UInt8] { otherNameBytes ?? Array(name.utf8) }
        package let method: UInt16
        package let crc: UInt32
        package var compressedSize: UInt64
        package var size: UInt64
        /// File offset of the entry's local header.
        package var headerOffset: UInt64
        /// The general-purpose flags (bit 3: sizes in a data descriptor after the data, as some zip tools write).
        package var flags: UInt16 = 0
        /// The high byte is the system whose attributes the entry carries (3: Unix).
        package var versionMadeBy: UInt16 = 0
        /// The Unix mode (type and permission bits) of an entry made on Unix: an IPA's executables and links.
        package var mode: UInt32 = 0
    }

    package typealias FormatError = ZipFormatError

    package let entries: [Entry]

    /// Reads the directory of the open zip `descriptor`, `fileSize` bytes long.
    package init(descriptor: Int32, fileSize: UInt64) throws {
        let endSize = 22
        let locatorSize = 20
        let zip64EndSize = 56
        guard fileSize >= UInt64(endSize) else { throw FormatError(description: "shorter than an end record") }
        let end = try Self.read(descriptor, at: fileSize - UInt64(endSize), count: endSize)
        var (count, directorySize, directoryOffset) = try end.withUnsafeBytes { raw -> (UInt64, UInt64, UInt64) in
            guard raw.little(0, as: UInt32.self) == ZipFormat.endOfCentralDirectorySignature,
                raw.little(4, as: UInt32.self) == 0,
                raw.little(20, as: UInt16.self) == 0
            else {
                throw FormatError(description: "no end record without a comment at the end")
            }
            return (
                UInt64(raw.little(10, as: UInt16.self)), UInt64(raw.little(12, as: UInt32.self)),
                UInt64(raw.little(16, as: UInt32.self))
            )
        }
        var directoryEnd = fileSize - UInt64(endSize)
        if fileSize >= UInt64(endSize + locatorSize + zip64EndSize),
            case let locator = try Self.read(descriptor, at: directoryEnd - UInt64(locatorSize), count: locatorSize),
            locator.withUnsafeBytes({ $0.little(0, as: UInt32.self) }) == ZipFormat.zip64LocatorSignature
        {
            let recordOffset = locator.withUnsafeBytes { $0.little(8, as: UInt64.self) }
            guard recordOffset == directoryEnd - UInt64(locatorSize + zip64EndSize) else {
                throw FormatError(description: "the zip64 locator points at \(recordOffset), not just before it")
            }
            let record = try Self.read(descriptor, at: recordOffset, count: zip64EndSize)
            try record.withUnsafeBytes { raw in
                guard raw.little(0, as: UInt32.self) == ZipFormat.zip64EndSignature else {
                    throw FormatError(description: "no zip64 end record")
                }
                count = raw.little(32)
                directorySize = raw.little(40)
                directoryOffset = raw.little(48)
            }
            directoryEnd = recordOffset
        }
        guard directoryOffset <= directoryEnd, directoryEnd - directoryOffset == directorySize,
            directorySize <= UInt64(Int32.max),
            count <= directorySize / UInt64(ZipFormat.centralHeaderSize)
        else {
            throw FormatError(
                description:
                    """
                    the end record's directory (\(count) entries, \(directorySize) bytes at \(directoryOffset)) does \
                    not end where the end record begins
                    """
            )
        }
        let directory = try Self.read(descriptor, at: directoryOffset, count: Int(directorySize))
        entries = try directory.withUnsafeBytes { raw in try Self.parse(raw, count: Int(count), before: directoryOffset)
        }
        self.directoryOffset = directoryOffset
    }

    /// Where the central directory starts: every entry's data ends before it.
    package private(set) var directoryOffset: UInt64 = 0

    /// The first entry (by its local header's offset) whose data would overlap the next entry's local header or the
    /// central directory: zip tools write entries one after another, and entries that share bytes (a zip bomb of
    /// overlapping entries) would make a small archive unpack into far more than it holds. Nil when none does.
    package func overlappingEntry() -> Entry? {
        let ordered = entries.sorted { $0.headerOffset < $1.headerOffset }
        for (index, entry) in ordered.enumerated() {
            // The local header is at least 30 bytes and the name the central directory gives.
            let (partial, overflow) = entry.headerOffset.addingReportingOverflow(
                30 + UInt64(entry.otherNameBytes?.count ?? entry.name.utf8.count))
            let (end, overflowEnd) = partial.addingReportingOverflow(entry.compressedSize)
            let next = index + 1 < ordered.count ? ordered[index + 1].headerOffset : directoryOffset
            if overflow || overflowEnd || end > next { return entry }
        }
        return nil
    }

    /// `count` central headers filling `raw` exactly, each pointing before the directory.
    private static func parse(_ raw: UnsafeRawBufferPointer, count: Int, before limit: UInt64) throws -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var at = 0
        while at < raw.count {
            guard raw.count - at >= ZipFormat.centralHeaderSize,
                raw.little(at, as: UInt32.self) == ZipFormat.centralHeaderSignature
            else {
                throw FormatError(description: "no central header at directory offset \(at)")
            }
            let nameLength = Int(raw.little(at + 28, as: UInt16.self))
            let extraLength = Int(raw.little(at + 30, as: UInt16.self))
            let commentLength = Int(raw.little(at + 32, as: UInt16.self))
            let nameStart = at + ZipFormat.centralHeaderSize
            let extraStart = nameStart + nameLength
            guard extraStart + extraLength + commentLength <= raw.count else {
                throw FormatError(description: "a central header runs past the directory")
            }
            let nameRaw = UnsafeRawBufferPointer(rebasing: raw[nameStart..<extraStart])
            let text = String(validating: nameRaw, as: UTF8.self)
            var entry = Entry(
                name: text ?? FilePath.shownText(of: nameRaw), otherNameBytes: text == nil ? [UInt8](nameRaw) : nil,
                method: raw.little(at + 10), crc: raw.little(at + 16),
                compressedSize: UInt64(raw.little(at + 20, as: UInt32.self)),
                size: UInt64(raw.little(at + 24, as: UInt32.self)),
                headerOffset: UInt64(raw.little(at + 42, as: UInt32.self)), flags: raw.little(at + 8),
                versionMadeBy: raw.little(at + 4), mode: raw.little(at + 38, as: UInt32.self) >> 16)
            try ZipFormat.forEachExtraField(
                UnsafeRawBufferPointer(rebasing: raw[extraStart..<(extraStart + extraLength)])
            ) { id, field in
                guard id == ZipFormat.zip64ExtraID else { return }
                try ZipFormat.resolveCentralZip64(
                    field, name: entry.name, size: &entry.size, compressedSize: &entry.compressedSize,
                    offset: &entry.headerOffset)
            }
            guard entry.headerOffset < limit, entry.compressedSize <= limit - entry.headerOffset else {
                throw FormatError(description: "'\(entry.name)' lies outside the archive's entries")
            }
            entries.append(entry)
            at = extraStart + extraLength + commentLength
        }
        guard entries.count == count else {
            throw FormatError(description: "the end record says \(count) entries; the directory holds \(entries.count)")
        }
        return entries
    }

    private static func read(_ descriptor: Int32, at offset: UInt64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        if count == 0 { return bytes }
        let got = bytes.withUnsafeMutableBytes {
            SystemCall.readFully(descriptor, into: $0.baseAddress!, count: count, at: Int64(offset))
        }
        guard got == count else { throw FormatError(description: "cannot read \(count) bytes at offset \(offset)") }
        return bytes
    }
}
