import Foundation

/// One item of a `backgroundAssetUploadFiles` resource's `uploadOperations` (DeliveryFileUploadOperation): where and
/// how to send `length` bytes of the archive from `offset`, until `expiration`.
struct UploadOperation: Decodable, Sendable {
    var method: String
    var url: String
    var offset: Int64
    var length: Int64
    var headers: [(name: String, value: String)]
    var expiration: Date?

    init(
        method: String, url: String, offset: Int64, length: Int64, headers: [(name: String, value: String)] = [],
        expiration: Date? = nil
    ) {
        self.method = method
        self.url = url
        self.offset = offset
        self.length = length
        self.headers = headers
        self.expiration = expiration
    }

    private enum Keys: String, CodingKey { case method, url, offset, length, requestHeaders, expiration }

    /// `requestHeaders` (HttpHeader: `name`, `value`).
    private struct Header: Decodable {
        var name: String
        var value: String
    }

    /// Without method, URL, an offset of at least 0 or a length of at least 1 it is no operation: the reservation
    /// then cannot cover the archive, and the pack stops with exit 2 saying so.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        method = try container.decode(String.self, forKey: .method)
        url = try container.decode(String.self, forKey: .url)
        guard let offset = LenientNumber.int64(container, .offset),
            let length = LenientNumber.int64(container, .length),
            offset >= 0, length >= 1
        else { throw ResourceType.Mismatch() }
        self.offset = offset
        self.length = length
        let headers = (try? container.decodeIfPresent(LossyList<Header>.self, forKey: .requestHeaders)) ?? nil
        self.headers = headers?.elements.map { ($0.name, $0.value) } ?? []
        expiration = ((try? container.decodeIfPresent(String.self, forKey: .expiration)) ?? nil).flatMap(Self.parseDate)
    }

    /// Whether `expiration` is past at `now` (`margin` seconds early, so a part does not start just before it).
    func hasExpired(margin: TimeInterval = 5, now: Date) -> Bool {
        guard let expiration else { return false }
        return now.addingTimeInterval(margin) >= expiration
    }

    static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
