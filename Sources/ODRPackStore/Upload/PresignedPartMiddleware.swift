import Foundation
import ODRPackPlatform

/// The rules of one presigned part upload (docs/store.md#failures, #trust-boundaries), inside RetryMiddleware so
/// they hold at every attempt: a URL past its `expiration` (5 s early, so a part does not start just before it) is not
/// sent, and a 403 once it has passed means the same; both end the part with `UploadURLExpired`, and the pack gets a
/// new reservation. A redirect is a failed part (`HTTPFailure.redirected`), sent again to its own URL and never
/// counted as sent.
struct PresignedPartMiddleware: HTTPMiddleware {
    let operation: UploadOperation
    let clock: any UploadClock

    func intercept(_ request: HTTPRequest, what: StoreRequest, next: HTTPNext) throws -> HTTPResult {
        if operation.hasExpired(now: clock.now) { throw UploadURLExpired() }
        let result = try next(request)
        guard case .success(let response) = result else { return result }
        if (300..<400).contains(response.status) { return .failure(.redirected(response.status)) }
        if response.status == 403 && operation.hasExpired(margin: -5, now: clock.now) { throw UploadURLExpired() }
        return result
    }
}

/// A part's URL expired before App Store Connect took its bytes: reserve again (PackUploader).
struct UploadURLExpired: Error {}
