import CLibdeflate

/// CRC-32 as zip stores it (the same polynomial as zlib's), through libdeflate, which uses the CPU's carry-less
/// multiply where it has one.
package enum CRC32 {
    package static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        return libdeflate_crc32(crc, base, bytes.count)
    }
}
