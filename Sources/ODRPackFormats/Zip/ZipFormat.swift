import ODRPackPlatform

/// A zip that cannot be read as this project writes them, with where and why: what both zip readers throw.
package struct ZipFormatError: Error, CustomStringConvertible {
    package let description: String
}

/// The numbers of the zip format (PKWARE APPNOTE) that Apple's streaming asset packs use (docs/build-output.md).
package enum ZipFormat {
    static let localHeaderSignature: UInt32 = 0x0403_4b50
    static let centralHeaderSignature: UInt32 = 0x0201_4b50
    static let endOfCentralDirectorySignature: UInt32 = 0x0605_4b50
    static let zip64EndSignature: UInt32 = 0x0606_4b50
    static let zip64LocatorSignature: UInt32 = 0x0706_4b50
    package static let zip64ExtraID: UInt16 = 0x0001

    static let localHeaderSize = 30
    static let centralHeaderSize = 46
    /// Unix (3) in the high byte, APPNOTE 3.0 (30) in the low byte.
    package static let versionMadeBy: UInt16 = 0x031E
    /// General-purpose flag bit 11: names are UTF-8. Bit 3 (data descriptor) is never set.
    package static let utf8Flag: UInt16 = 0x0800

    /// The general-purpose flags of an entry named `name`: bit 11 when the name is UTF-8, which every name a pack
    /// holds is; an IPA's file whose name is not UTF-8 (`caf\xE9.txt`) keeps its bytes with the bit clear, as APPNOTE
    /// 4.4.4 and D.2 say (docs/store.md#ipa).
    package static func flags(name: [UInt8]) -> UInt16 {
        if name.allSatisfy({ $0 < 0x80 }) || String(validating: name, as: UTF8.self) != nil { return utf8Flag }
        return 0
    }
    package static let dataDescriptorFlag: UInt16 = 0x0008
    package static let stored: UInt16 = 0
    package static let deflated: UInt16 = 8
    /// A 32-bit field that holds this says "see the zip64 extra field".
    static let overflow32: UInt32 = 0xFFFF_FFFF

    package static let folderMode: UInt32 = 0o040755
    package static let fileMode: UInt32 = 0o100644
    /// MS-DOS attribute bit for a folder, set beside the Unix mode as Info-ZIP does.
    static let dosFolderAttribute: UInt32 = 0x10

    /// Calls `body` with each extra field's id and data, in order; a field that runs past `extra`, or bytes left over
    /// after the last one, is a `ZipFormatError`.
    static func forEachExtraField(
        _ extra: UnsafeRawBufferPointer, _ body: (UInt16, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var at = 0
        while at + 4 <= extra.count {
            let id: UInt16 = extra.little(at)
            let length = Int(extra.little(at + 2, as: UInt16.self))
            guard at + 4 + length <= extra.count else {
                throw ZipFormatError(description: "an extra field runs past its header")
            }
            try body(id, UnsafeRawBufferPointer(rebasing: extra[(at + 4)..<(at + 4 + length)]))
            at += 4 + length
        }
        guard at == extra.count else { throw ZipFormatError(description: "an extra field is cut short") }
    }

    /// A central header's numbers whose 32-bit fields overflowed, from its zip64 extra `field`, which holds only
    /// those, in this order: size, compressed size, local header offset.
    static func resolveCentralZip64(
        _ field: UnsafeRawBufferPointer, name: String,
        size: inout UInt64, compressedSize: inout UInt64, offset: inout UInt64
    ) throws {
        var at = 0
        func take(_ value: inout UInt64) throws {
            guard value == UInt64(overflow32) else { return }
            guard at + 8 <= field.count else {
                throw ZipFormatError(description: "'\(name)': its central zip64 field is too short")
            }
            value = field.little(at)
            at += 8
        }
        try take(&size)
        try take(&compressedSize)
        try take(&offset)
    }

    /// Whether an entry's local header carries the zip64 extra field: exactly when a size does not fit 32 bits.
    /// The writer and `verify` decide with this one rule (docs/build-output.md: zip64 only where a size needs it).
    package static func needsZip64(size: UInt64, compressedSize: UInt64) -> Bool {
        size >= UInt64(overflow32) || compressedSize >= UInt64(overflow32)
    }

    /// The version needed to extract an entry: 4.5 for zip64, 2.0 for folders and deflate, 1.0 otherwise.
    static func versionNeeded(zip64: Bool, method: UInt16, isFolder: Bool) -> UInt16 {
        zip64 ? 45 : (method == deflated || isFolder) ? 20 : 10
    }

    /// MS-DOS date and time of a UTC instant (never the local time zone), clamped to the format's 1980-2107 range.
    static func dosDateTime(_ seconds: Int64) -> (time: UInt16, date: UInt16) {
        let clamped = min(max(seconds, 315_532_800), 4_354_819_198)
        let time = UTCTime(secondsSince1970: clamped)
        let dosTime = UInt16(time.hour) << 11 | UInt16(time.minute) << 5 | UInt16(time.second / 2)
        let dosDate = UInt16(time.year - 1980) << 9 | UInt16(time.month) << 5 | UInt16(time.day)
        return (dosTime, dosDate)
    }

    /// Seconds since 1970 of an MS-DOS time and date read as UTC.
    package static func seconds(dosTime: UInt16, dosDate: UInt16) -> Int64 {
        UTCTime(
            year: Int(dosDate >> 9) + 1980, month: Int((dosDate >> 5) & 0xF), day: Int(dosDate & 0x1F),
            hour: Int(dosTime >> 11), minute: Int((dosTime >> 5) & 0x3F), second: Int(dosTime & 0x1F) * 2
        ).secondsSince1970
    }
}

extension Array where Element == UInt8 {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        var little = value.littleEndian
        Swift.withUnsafeBytes(of: &little) { append(contentsOf: $0) }
    }
}

extension UnsafeRawBufferPointer {
    /// The little-endian integer at `offset`; the caller checks the bounds.
    func little<T: FixedWidthInteger>(_ offset: Int, as type: T.Type = T.self) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
