import ODRPackPlatform

/// Why a request got no usable response. The transport gives `timedOut`, `dropped`, `tooLarge`, `unreadable` and
/// `unavailable`; `redirected` is a middleware's (PresignedPartMiddleware: a 3xx answering a part is a failed part).
/// `timedOut`, `dropped` and `redirected` are retried like a 503 (docs/store.md#failures); the rest end the run.
enum HTTPFailure: Error, Sendable, Equatable {
    case timedOut
    case dropped(String)
    /// The response body passed `HTTPResponse.bodyLimit`: the transfer was stopped there.
    case tooLarge
    /// The response's header block passed this many bytes: the transfer was stopped there.
    case headersTooLarge(Int)
    /// The part's bytes could not be read from the archive.
    case unreadable(String)
    /// libcurl could not be loaded (docs/store.md#libcurl).
    case unavailable(String)
    /// A part was answered with this redirect status, which odrpack never follows (docs/store.md#trust-boundaries).
    case redirected(Int)

    /// What went wrong, for `--verbose` and the message after the last retry: `timed out`, `connection lost: …`.
    var reason: String {
        switch self {
        case .timedOut: return "timed out"
        case .dropped(let reason): return "connection lost: \(reason)"
        case .tooLarge: return "an answer over \(HTTPResponse.bodyLimit >> 20) MiB"
        case .headersTooLarge(let limit): return "headers over \(limit >> 10) KiB"
        case .unreadable(let reason): return reason
        case .unavailable: return UploadFailure.curlMissing.description
        case .redirected(let status): return "redirected (\(status)), not followed"
        }
    }
}
