import Foundation

@testable import ODRPackStore

/// The tests' UploadClock: `sleep` returns at once, records what it was asked to wait, and moves `now` that far, so
/// back-off, `Retry-After`, `--wait`'s polls and its limit take no time and their seconds are checked exactly.
/// `now` starts where it is told (the time it was made, by default) and moves only by sleeps.
final class FakeUploadClock: UploadClock, @unchecked Sendable {
    private let lock = NSLock()
    private let start: Date
    private var slept: [Duration] = []

    init(now: Date = Date()) { start = now }

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return start.addingTimeInterval(slept.reduce(0) { $0 + max(0, $1.timeInterval) })
    }

    func sleep(for duration: Duration) {
        lock.lock()
        slept.append(duration)
        lock.unlock()
    }

    /// Every wait asked for, in order (from all threads).
    var sleeps: [Duration] {
        lock.lock()
        defer { lock.unlock() }
        return slept
    }
}
