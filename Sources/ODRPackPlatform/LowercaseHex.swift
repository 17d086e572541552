/// Lowercase hexadecimal by bytes, as odrpack writes every SHA-256: the one parser of it and one writer that needs no
/// String (a million files' digests are read and hashed as text without one each).
package enum LowercaseHex {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends two digits for each of `bytes`.
    package static func append(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
    }

    /// Two digits for each of `bytes`, as a String.
    package static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            for (index, byte) in bytes.enumerated() {
                text[index * 2] = digits[Int(byte >> 4)]
                text[index * 2 + 1] = digits[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }

    /// Parses `hex`, two lowercase digits a byte, into `bytes`; false (`bytes` then undefined) when `hex` is not
    /// exactly `bytes.count * 2` such digits.
    package static func parse(_ hex: UnsafeBufferPointer<UInt8>, into bytes: UnsafeMutableRawBufferPointer) -> Bool {
        guard hex.count == bytes.count * 2 else { return false }
        for index in 0..<bytes.count {
            guard let high = value(hex[index * 2]), let low = value(hex[index * 2 + 1]) else { return false }
            bytes[index] = high << 4 | low
        }
        return true
    }

    /// A lowercase hex digit's value.
    @inline(__always)
    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
