import Foundation

/// Reads a zip's central directory and local headers byte by byte, independently of odrpack's own reader,
/// to check what the writer put in every field.
struct ZipDirectory {
    struct Entry: Equatable {
        var name: String
        var method: Int
        var compressedSize: UInt64
        var size: UInt64
        var versionMadeBy: Int
        var flags: Int
        var crc: UInt32
        var mode: Int
        var extraLength: Int
        var offset: UInt64
    }

    /// One local header, read at the offset the central directory gives.
    struct LocalHeader: Equatable {
        var name: String
        var flags: Int
        var method: Int
        var crc: UInt32
        var compressedSize: UInt64
        var size: UInt64
        var extraIDs: [Int]
        var dosTime: Int
        var dosDate: Int
    }

    var entries: [Entry] = []
    var locals: [LocalHeader] = []

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        func u16(_ at: Int) -> Int { Int(data[data.startIndex + at]) | Int(data[data.startIndex + at + 1]) << 8 }
        func u32(_ at: Int) -> UInt64 { UInt64(u16(at)) | UInt64(u16(at + 2)) << 16 }
        func u64(_ at: Int) -> UInt64 { u32(at) | u32(at + 4) << 32 }
        func text(_ at: Int, _ count: Int) -> String {
            String(decoding: data[(data.startIndex + at)..<(data.startIndex + at + count)], as: UTF8.self)
        }
        var end = data.count - 22
        while end >= 0 && u32(end) != 0x0605_4b50 { end -= 1 }
        guard end >= 0 else { throw CocoaError(.fileReadCorruptFile) }
        var count = u16(end + 10)
        var offset = Int(u32(end + 16))
        if offset == 0xFFFF_FFFF || count == 0xFFFF {
            let locator = end - 20
            let zip64End = Int(u64(locator + 8))
            count = Int(u64(zip64End + 32))
            offset = Int(u64(zip64End + 48))
        }
        for _ in 0..<count {
            guard u32(offset) == 0x0201_4b50 else { throw CocoaError(.fileReadCorruptFile) }
            let nameLength = u16(offset + 28)
            let extraLength = u16(offset + 30)
            let commentLength = u16(offset + 32)
            var compressed = u32(offset + 20)
            var size = u32(offset + 24)
            var local = u32(offset + 42)
            let name = text(offset + 46, nameLength)
            var extra = offset + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = u16(extra)
                let length = u16(extra + 2)
                if id == 0x0001 {
                    var field = extra + 4
                    if size == 0xFFFF_FFFF {
                        size = u64(field)
                        field += 8
                    }
                    if compressed == 0xFFFF_FFFF {
                        compressed = u64(field)
                        field += 8
                    }
                    if local == 0xFFFF_FFFF { local = u64(field) }
                }
                extra += 4 + length
            }
            entries.append(
                Entry(
                    name: name, method: u16(offset + 10), compressedSize: compressed, size: size,
                    versionMadeBy: u16(offset + 4), flags: u16(offset + 8), crc: UInt32(u32(offset + 16)),
                    mode: Int(u32(offset + 38) >> 16), extraLength: extraLength, offset: local))
            offset = extraEnd + commentLength
        }
        for entry in entries {
            let at = Int(entry.offset)
            guard u32(at) == 0x0403_4b50 else { throw CocoaError(.fileReadCorruptFile) }
            let nameLength = u16(at + 26)
            let extraLength = u16(at + 28)
            var compressed = u32(at + 18)
            var size = u32(at + 22)
            var ids: [Int] = []
            var extra = at + 30 + nameLength
            while extra + 4 <= at + 30 + nameLength + extraLength {
                ids.append(u16(extra))
                if u16(extra) == 0x0001 {
                    size = u64(extra + 4)
                    compressed = u64(extra + 12)
                }
                extra += 4 + u16(extra + 2)
            }
            locals.append(
                LocalHeader(
                    name: text(at + 30, nameLength), flags: u16(at + 6), method: u16(at + 8),
                    crc: UInt32(u32(at + 14)), compressedSize: compressed, size: size, extraIDs: ids,
                    dosTime: u16(at + 10), dosDate: u16(at + 12)))
        }
    }
}
