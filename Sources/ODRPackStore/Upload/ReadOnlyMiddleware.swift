import ODRPackPlatform

/// A dry run's guarantee (docs/store.md#upload, `--dry-run`): GET requests only; anything else is refused here,
/// before it leaves, whatever code asked for it.
struct ReadOnlyMiddleware: HTTPMiddleware {
    func intercept(_ request: HTTPRequest, what: StoreRequest, next: HTTPNext) throws -> HTTPResult {
        guard request.method == "GET" else {
            throw ODRPackError.refused(.dryRunWrite(method: request.method, path: request.url.path))
        }
        return try next(request)
    }
}
