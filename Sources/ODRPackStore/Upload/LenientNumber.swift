/// A JSON number App Store Connect gives as a count of bytes: an integer, or a number with a fraction (its integer
/// part), within Int64; anything else is absent.
enum LenientNumber {
    static func int64<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) -> Int64? {
        if let value = try? container.decodeIfPresent(Int64.self, forKey: key) { return value }
        guard let value = try? container.decodeIfPresent(Double.self, forKey: key), value.isFinite else { return nil }
        return Int64(exactly: value.rounded(.towardZero))
    }
}
