import ODRPackPlatform

/// What a request came to: a response, or why there was none.
typealias HTTPResult = Result<HTTPResponse, HTTPFailure>

/// The layers after a middleware, down to the transport.
typealias HTTPNext = (HTTPRequest) throws -> HTTPResult

/// One layer between `AppStoreConnectClient` and its `HTTPTransport`, in the manner of swift-openapi-runtime's
/// `ClientMiddleware`: it sees each request on its way out and what came back, and may change the request, send it
/// again, or refuse it. Authentication, the one retry policy, `--jobs`' limit and `--verbose` are each one middleware,
/// so each is tested alone with a fake `next` and the client only says which run in which order (HTTPPipeline).
protocol HTTPMiddleware: Sendable {
    /// - Parameters:
    ///   - what: the request as messages name it (`pack 'x': POST /v1/backgroundAssetVersions`; never a query), the
    ///     fact an `ODRPackError` about it carries.
    ///   - next: the layers after this one, down to the transport; called once per send.
    /// - Throws: `ODRPackError` to stop the run (exit 2), or another error its caller catches (PresignedPartMiddleware's
    ///   `UploadURLExpired`).
    func intercept(_ request: HTTPRequest, what: StoreRequest, next: HTTPNext) throws -> HTTPResult
}
