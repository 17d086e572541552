import Foundation

/// What `HTTPTransport.send` sends: every header is the caller's (no cookies, no cache, no credential store).
struct HTTPRequest: Sendable {
    /// A body in memory (an API request's JSON) or a range of an open file (an upload part): a part is streamed from
    /// the archive the record vouches for, never copied whole into memory (docs/store.md#trust-boundaries).
    enum Body: Sendable {
        case bytes(Data)
        case file(descriptor: Int32, offset: Int64, length: Int64)

        var length: Int64 {
            switch self {
            case .bytes(let data): return Int64(data.count)
            case .file(_, _, let length): return length
            }
        }
    }

    var method: String
    var url: URL
    var headers: [(name: String, value: String)]
    var body: Body?
}
