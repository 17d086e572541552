import Foundation

/// The time `upload` reads and the waits it makes (docs/store.md#failures): retry back-off, `Retry-After`, `--wait`'s
/// polls and its limit, and upload URLs' expiry. Injected, so that the tests run every wait in-process with a clock
/// whose `sleep` only moves its `now` (no time-scaling variable in the product); one protocol for the clock and the
/// sleeper, so a fake's sleep moves the time its expiry and `--wait` limit read.
package protocol UploadClock: Sendable {
    /// The current time.
    var now: Date { get }
    /// Blocks the calling thread (one of `--jobs`) for `duration`; zero or less returns at once.
    func sleep(for duration: Duration)
}

/// The system's clock: `Date()`, and the thread sleeps.
package struct SystemUploadClock: UploadClock {
    package init() {}

    package var now: Date { Date() }

    package func sleep(for duration: Duration) {
        let seconds = duration.timeInterval
        if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
    }
}

extension Duration {
    /// Seconds as a `Double` (attoseconds kept), for `Thread.sleep` and `Date` arithmetic.
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
