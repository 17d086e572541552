/// Why `HTTPTransport.send` got no response. `timedOut` and `dropped` are retried like a 503 (docs/store.md#failures);
/// the rest end the run.
enum HTTPFailure: Error, Sendable, Equatable {
    case timedOut
    case dropped(String)
    /// The response body passed `HTTPResponse.bodyLimit`: the transfer was stopped there.
    case tooLarge
    /// The part's bytes could not be read from the archive.
    case unreadable(String)
    /// libcurl could not be loaded (docs/store.md#libcurl).
    case unavailable(String)
}
