import Testing

@testable import ODRPackFormats

/// Each record `ZipHeaders` encodes, byte for byte against PKWARE's APPNOTE field tables (4.3.7 local header, 4.3.12
/// central header, 4.3.14-16 zip64 end, locator and end records, 4.5.3 zip64 extra field).
@Suite struct ZipHeadersTests {
    /// "50 4B 03 04" → bytes; spaces and line breaks are for reading.
    func hex(_ text: String) -> [UInt8] {
        text.split(whereSeparator: \.isWhitespace).map { UInt8($0, radix: 16)! }
    }

    let time: UInt16 = 0x6000  // 12:00:00
    let date: UInt16 = 0x2821  // 2000-01-01

    @Test func aStoredFilesLocalHeaderHoldsItsCRCAndBothSizes() {
        let header = ZipHeaders.local(
            name: Array("a.txt".utf8), method: ZipFormat.stored, crc: 0x1234_5678, size: 5, compressedSize: 5,
            zip64: false, dosTime: time, dosDate: date)
        #expect(
            header
                == hex(
                    """
                    50 4B 03 04  0A 00  00 08  00 00  00 60  21 28  78 56 34 12  05 00 00 00  05 00 00 00
                    05 00  00 00  61 2E 74 78 74
                    """))
    }

    @Test func aZip64LocalHeaderPointsBothSizesAtItsExtraField() {
        let header = ZipHeaders.local(
            name: Array("big".utf8), method: ZipFormat.deflated, crc: 0, size: 0x1_0000_0000, compressedSize: 0x1234,
            zip64: true, dosTime: time, dosDate: date)
        #expect(
            header
                == hex(
                    """
                    50 4B 03 04  2D 00  00 08  08 00  00 60  21 28  00 00 00 00  FF FF FF FF  FF FF FF FF
                    03 00  14 00  62 69 67
                    01 00  10 00  00 00 00 00 01 00 00 00  34 12 00 00 00 00 00 00
                    """))
    }

    @Test func aFoldersHeadersNeedVersionTwoAndCarryItsMode() {
        let local = ZipHeaders.local(
            name: Array("d/".utf8), method: ZipFormat.stored, crc: 0, size: 0, compressedSize: 0, zip64: false,
            dosTime: time, dosDate: date)
        #expect(
            local
                == hex(
                    "50 4B 03 04  14 00  00 08  00 00  00 60  21 28  00 00 00 00  00 00 00 00  00 00 00 00  02 00  00 00  64 2F"
                ))
        let record = ZipHeaders.Record(
            name: Array("d/".utf8), method: ZipFormat.stored, crc: 0, compressedSize: 0, size: 0, offset: 0,
            isFolder: true)
        // External attributes: mode 040755 in the high half, the MS-DOS folder bit (0x10) in the low.
        #expect(
            ZipHeaders.central(record, dosTime: time, dosDate: date)
                == hex(
                    """
                    50 4B 01 02  1E 03  14 00  00 08  00 00  00 60  21 28  00 00 00 00  00 00 00 00  00 00 00 00
                    02 00  00 00  00 00  00 00  00 00  10 00 ED 41  00 00 00 00  64 2F
                    """))
    }

    /// Only the numbers that overflow go in the zip64 field: here the offset, not the sizes.
    @Test func aCentralHeaderPastFourGiBHoldsOnlyItsOffsetInZip64() {
        let record = ZipHeaders.Record(
            name: Array("x".utf8), method: ZipFormat.deflated, crc: 0xAABB_CCDD, compressedSize: 3, size: 7,
            offset: 0x1_0000_0002, isFolder: false)
        #expect(
            ZipHeaders.central(record, dosTime: time, dosDate: date)
                == hex(
                    """
                    50 4B 01 02  1E 03  2D 00  00 08  08 00  00 60  21 28  DD CC BB AA  03 00 00 00  07 00 00 00
                    01 00  0C 00  00 00  00 00  00 00  00 00 A4 81  FF FF FF FF  78
                    01 00  08 00  02 00 00 00 01 00 00 00
                    """))
    }

    @Test func theEndRecordAloneWhileEveryNumberFits() {
        #expect(
            ZipHeaders.end(entryCount: 2, directoryOffset: 100, directorySize: 50)
                == hex("50 4B 05 06  00 00  00 00  02 00  02 00  32 00 00 00  64 00 00 00  00 00"))
    }

    /// 65,535 entries is the first count the end record cannot hold (0xFFFF says "see zip64").
    @Test func sixtyFiveThousandFiveHundredThirtyFiveEntriesAddTheZip64Records() {
        #expect(ZipHeaders.end(entryCount: 0xFFFE, directoryOffset: 100, directorySize: 50).count == 22)
        #expect(
            ZipHeaders.end(entryCount: 0xFFFF, directoryOffset: 100, directorySize: 50)
                == hex(
                    """
                    50 4B 06 06  2C 00 00 00 00 00 00 00  1E 03  2D 00  00 00 00 00  00 00 00 00
                    FF FF 00 00 00 00 00 00  FF FF 00 00 00 00 00 00  32 00 00 00 00 00 00 00  64 00 00 00 00 00 00 00
                    50 4B 06 07  00 00 00 00  96 00 00 00 00 00 00 00  01 00 00 00
                    50 4B 05 06  00 00  00 00  FF FF  FF FF  32 00 00 00  64 00 00 00  00 00
                    """))
    }

    @Test func aDirectoryAtFourGiBAddsTheZip64RecordsWithFewEntries() {
        let end = ZipHeaders.end(entryCount: 1, directoryOffset: 0xFFFF_FFFF, directorySize: 46)
        #expect(end.count == 56 + 20 + 22)
        #expect(Array(end[76...]) == hex("50 4B 05 06  00 00  00 00  01 00  01 00  2E 00 00 00  FF FF FF FF  00 00"))
        // The locator points at the zip64 end record, right after the directory.
        #expect(Array(end[64..<72]) == hex("2D 00 00 00 01 00 00 00"))
    }
}
