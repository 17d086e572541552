import Foundation

/// One HTTP exchange, blocking, as `AppStoreConnectClient` needs it (docs/store.md#libcurl): `CurlTransport` in the
/// product, a scripted one in the tests, so that retries, back-off, `Retry-After`, the 401 renewal, redirects and
/// expiry are tested in-process. A transport follows no redirect and retries nothing itself: one failure is one
/// resend, and that decision is the client's.
protocol HTTPTransport: Sendable {
    /// Called from `--jobs` threads at once.
    func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPFailure>
}
