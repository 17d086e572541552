import ODRPackPlatform

/// A dry run's guarantee (docs/store.md#upload, `--dry-run`): GET requests only; anything else is refused here,
/// before it leaves, whatever code asked for it.
struct ReadOnlyMiddleware: HTTPMiddleware {
    func intercept(_ request: HTTPRequest, what: String, next: HTTPNext) throws -> HTTPResult {
        guard request.method == "GET" else {
            throw ODRPackError.unusableInput(
                "a dry run sends GET requests only, not \(request.method) \(request.url.path)")
        }
        return try next(request)
    }
}
