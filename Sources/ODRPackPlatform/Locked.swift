import Foundation

/// A value behind a lock, for the few places threads share one. `Synchronization.Mutex` does the same but needs
/// macOS 15, and CI images still run macOS 13 and 14.
/// `@unchecked Sendable` because: `value` is read and written only inside `withLock`, with `lock` held.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
