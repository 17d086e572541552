import Foundation

/// A response as `HTTPTransport` received it, its body at most `HTTPResponse.bodyLimit` bytes.
struct HTTPResponse: Sendable {
    /// More than this is no answer App Store Connect gives: the transfer stops there, so memory does not grow with
    /// what a server sends (docs/store.md#trust-boundaries).
    static let bodyLimit = 16 << 20

    var status: Int
    /// Header names lowercased.
    var headers: [String: String]
    var body: Data

    init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The header block of one response (`HTTP/1.1 200 OK`, then `Name: value` lines), names lowercased; a repeated
    /// name keeps its last value.
    static func parseHeaders(_ block: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in block.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }).dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }
}
