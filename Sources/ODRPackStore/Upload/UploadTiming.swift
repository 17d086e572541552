import Foundation

/// Every wait `upload` makes (docs/store.md#failures): retries back off 1, 2, 4, 8 and 16 seconds (at most 5 retries
/// of one request), `Retry-After` is obeyed, `--wait` polls every 5 seconds growing to 60. `ODRPACK_ASC_TIME_SCALE`
/// multiplies all of them, and `--wait`'s limit, for the tests only (the stand-in's tests run them in milliseconds);
/// `ODRPACK_ASC_TIMEOUT` is the whole seconds a request may stall before it counts as timed out (default 120).
struct UploadTiming: Sendable {
    static let maximumRetries = 5
    var scale: Double = 1
    var requestTimeout: TimeInterval = 120
    /// How a wait is waited: the thread sleeps; the tests of the client's rules record the seconds instead.
    var sleeper: @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }

    init(environment: [String: String]) {
        if let text = environment["ODRPACK_ASC_TIME_SCALE"], let value = Double(text), value >= 0, value.isFinite {
            scale = value
        }
        // Whole seconds: libcurl's connect and stall timeouts take them.
        if let text = environment["ODRPACK_ASC_TIMEOUT"], let value = Double(text), value > 0, value < 1e6 {
            requestTimeout = max(1, value.rounded(.up))
        }
    }

    /// Before retry `number` (1 for the first): 1 s, then doubling.
    func backoff(retry number: Int) -> Double { Double(1 << min(max(number - 1, 0), 10)) }

    /// `--wait`'s interval before poll `number` (1 for the first): 5 s doubling to at most 60.
    func pollInterval(_ number: Int) -> Double { min(60, 5 * Double(1 << min(max(number - 1, 0), 4))) }

    func sleep(_ seconds: Double) {
        let scaled = seconds * scale
        if scaled > 0 { sleeper(scaled) }
    }

    /// `Retry-After` in seconds (the HTTP-date form too), capped at an hour.
    static func retryAfter(_ value: String?, now: Date = Date()) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value), seconds >= 0, seconds.isFinite { return min(seconds, 3600) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return min(max(date.timeIntervalSince(now), 0), 3600)
    }
}
