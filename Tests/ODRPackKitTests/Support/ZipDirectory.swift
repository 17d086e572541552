import Foundation

/// Reads a zip's central directory (names, compression methods, sizes) to check what the writer chose.
struct ZipDirectory {
    struct Entry: Equatable {
        var name: String
        var method: Int
        var compressedSize: UInt64
        var size: UInt64
    }

    var entries: [Entry] = []

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        func u16(_ at: Int) -> Int { Int(data[data.startIndex + at]) | Int(data[data.startIndex + at + 1]) << 8 }
        func u32(_ at: Int) -> UInt64 { UInt64(u16(at)) | UInt64(u16(at + 2)) << 16 }
        func u64(_ at: Int) -> UInt64 { u32(at) | u32(at + 4) << 32 }
        var end = data.count - 22
        while end >= 0 && u32(end) != 0x06054b50 { end -= 1 }
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
            guard u32(offset) == 0x02014b50 else { throw CocoaError(.fileReadCorruptFile) }
            let nameLength = u16(offset + 28), extraLength = u16(offset + 30), commentLength = u16(offset + 32)
            var compressed = u32(offset + 20), size = u32(offset + 24)
            let name = String(decoding: data[(data.startIndex + offset + 46)..<(data.startIndex + offset + 46 + nameLength)], as: UTF8.self)
            var extra = offset + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = u16(extra), length = u16(extra + 2)
                if id == 0x0001 {
                    var field = extra + 4
                    if size == 0xFFFF_FFFF { size = u64(field); field += 8 }
                    if compressed == 0xFFFF_FFFF { compressed = u64(field) }
                }
                extra += 4 + length
            }
            entries.append(Entry(name: name, method: u16(offset + 10), compressedSize: compressed, size: size))
            offset = extraEnd + commentLength
        }
    }
}
