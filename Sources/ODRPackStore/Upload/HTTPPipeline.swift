import ODRPackPlatform

/// Middlewares in order, then the transport: `send` passes a request through each (the first sees it first and its
/// answer last), so the order is the policy: the retry outside authentication, so each attempt carries a token that
/// is still fresh after a long `Retry-After`; `--jobs`' slot inside the retry, so no slot is held while waiting.
struct HTTPPipeline: Sendable {
    let middlewares: [any HTTPMiddleware]
    let transport: any HTTPTransport

    func send(_ request: HTTPRequest, what: StoreRequest) throws -> HTTPResult {
        try send(request, what: what, from: 0)
    }

    private func send(_ request: HTTPRequest, what: StoreRequest, from index: Int) throws -> HTTPResult {
        guard index < middlewares.count else { return transport.send(request) }
        return try middlewares[index].intercept(request, what: what) { try send($0, what: what, from: index + 1) }
    }
}
