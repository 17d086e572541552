import ODRPackFormats

/// Draws values from fuzzer bytes; zeros once they run out.
struct FuzzInput {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    mutating func word() -> UInt64 { (0..<8).reduce(0) { value, _ in value << 8 | UInt64(byte()) } }

    mutating func string() -> String {
        let count = Int(byte() % 48)
        return String(decoding: (0..<count).map { _ in byte() }, as: UTF8.self)
    }

    mutating func propertyList(depth: Int) -> PropertyListValue {
        switch byte() % (depth < 5 ? 6 : 4) {
        case 0: return .bool(byte() & 1 == 1)
        case 1: return .int(Int64(bitPattern: word()))
        case 2:
            let real = Double(bitPattern: word())
            return .real(real.isNaN ? 0 : real)
        case 3: return .string(string())
        case 4: return .array((0..<Int(byte() % 6)).map { _ in propertyList(depth: depth + 1) })
        default:
            var dictionary: [String: PropertyListValue] = [:]
            for _ in 0..<Int(byte() % 6) { dictionary[string()] = propertyList(depth: depth + 1) }
            return .dictionary(dictionary)
        }
    }
}
