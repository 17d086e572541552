import Foundation
import ODRPackPlatform

/// `--jobs`: requests in flight at once, API calls and parts together. One instance is shared by every pipeline of a
/// client, and it sits inside RetryMiddleware, so a request waiting to be retried holds no slot.
struct ConcurrencyLimitMiddleware: HTTPMiddleware {
    private let slots: DispatchSemaphore

    init(jobs: Int) { slots = DispatchSemaphore(value: max(1, jobs)) }

    func intercept(_ request: HTTPRequest, what: StoreRequest, next: HTTPNext) throws -> HTTPResult {
        slots.wait()
        defer { slots.signal() }
        return try next(request)
    }
}
