/// A JSON number App Store Connect gives as a count of bytes: an integer, or a number with a fraction (its integer
/// part), within Int64; anything else is absent.
enum LenientNumber {
    static func int64<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) -> Int64? {
        if let value = try? container.decodeIfPresent(Int64.self, forKey: key) { return value }
        guard let value = try? container.decodeIfPresent(Double.self, forKey: key), value.isFinite else { return nil }
        return Int64(exactly: value.rounded(.towardZero))
    }

    /// A count that only adds up (`usedBytes`, docs/store.md#the-quota): a number past Int64 (2^63 or more, which the
    /// description's int64 allows no server to send but one may) is held at `Int64.max`, never read as 0 or wrapped;
    /// a negative one is 0; anything that is not a number is absent.
    static func saturatingInt64<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) -> Int64? {
        if let value = try? container.decodeIfPresent(Int64.self, forKey: key) { return max(0, value) }
        if (try? container.decodeIfPresent(UInt64.self, forKey: key)) != nil { return Int64.max }
        guard let value = try? container.decodeIfPresent(Double.self, forKey: key), !value.isNaN else { return nil }
        if value <= 0 { return 0 }
        if value >= 9_223_372_036_854_775_807.0 { return Int64.max }
        return Int64(value.rounded(.towardZero))
    }
}
