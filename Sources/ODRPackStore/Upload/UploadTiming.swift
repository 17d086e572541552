import Foundation

/// `upload`'s time limits that are not retries (RetryMiddleware has those; docs/store.md#failures): how long a request
/// may stall (`ODRPACK_ASC_TIMEOUT`, whole seconds, default 120) and how often `--wait` polls (every 5 s, doubling to
/// 60). The waits themselves go through the injected `UploadClock`.
struct UploadTiming: Sendable {
    var requestTimeout: TimeInterval = 120

    init(environment: [String: String]) {
        // Whole seconds: libcurl's connect and stall timeouts take them.
        if let text = environment["ODRPACK_ASC_TIMEOUT"], let value = Double(text), value > 0, value < 1e6 {
            requestTimeout = max(1, value.rounded(.up))
        }
    }

    /// `--wait`'s interval before poll `number` (1 for the first): 5 s doubling to at most 60.
    static func pollInterval(_ number: Int) -> Duration { .seconds(min(60, 5 * (1 << min(max(number - 1, 0), 4)))) }
}
