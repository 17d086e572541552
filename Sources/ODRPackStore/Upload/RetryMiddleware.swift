import Foundation
import ODRPackPlatform

/// The one retry policy of `upload` (docs/store.md#failures), for API requests and parts alike: 429, 500, 502, 503
/// and 504 answers, a time-out, a dropped connection and a redirected part are sent again after 1, 2, 4, 8 and 16 s
/// (a 429's `Retry-After` instead, capped at an hour), five times at most; then exit 2 naming the request. One failure
/// is one resend: the transport retries nothing itself. Anything else is the answer, for the client to judge.
struct RetryMiddleware: HTTPMiddleware {
    static let maximumRetries = 5
    /// `Retry-After` beyond this is waited this long: App Store Connect's rate limits are per hour.
    static let longestRetryAfter: Duration = .seconds(3600)

    let clock: any UploadClock

    func intercept(_ request: HTTPRequest, what: StoreRequest, next: HTTPNext) throws -> HTTPResult {
        var retries = 0
        while true {
            let result = try next(request)
            guard let cause = Self.cause(of: result) else { return result }
            retries += 1
            guard retries <= Self.maximumRetries else {
                throw ODRPackError.network(what, .gaveUp(attempts: retries, lastCause: cause))
            }
            clock.sleep(for: delay(beforeRetry: retries, after: result))
        }
    }

    /// Why `result` is sent again (`503`, `timed out`, `redirected (307), not followed`); nil when it is the answer.
    static func cause(of result: HTTPResult) -> String? {
        switch result {
        case .success(let response): return isRetryable(response.status) ? "\(response.status)" : nil
        case .failure(let failure):
            switch failure {
            case .timedOut, .dropped, .redirected: return failure.reason
            case .tooLarge, .headersTooLarge, .unreadable, .unavailable: return nil
            }
        }
    }

    static func isRetryable(_ status: Int) -> Bool { [429, 500, 502, 503, 504].contains(status) }

    /// Before retry `number` (1 for the first): a 429's `Retry-After`, else 1 s doubling.
    func delay(beforeRetry number: Int, after result: HTTPResult) -> Duration {
        if case .success(let response) = result, response.status == 429,
            let wait = Self.retryAfter(response.headers["retry-after"], now: clock.now)
        {
            return wait
        }
        return Self.backoff(retry: number)
    }

    /// 1 s before the first retry, doubling: 1, 2, 4, 8, 16.
    static func backoff(retry number: Int) -> Duration { .seconds(1 << min(max(number - 1, 0), 10)) }

    /// `Retry-After` as seconds or as an HTTP-date (from `now`), at most `longestRetryAfter`; nil when it is neither.
    static func retryAfter(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        let limit = longestRetryAfter.timeInterval
        if let seconds = Double(value), seconds >= 0, seconds.isFinite { return .seconds(min(seconds, limit)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .seconds(min(max(date.timeIntervalSince(now), 0), limit))
    }
}
