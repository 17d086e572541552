import Foundation

/// Loads the previous build's state on another thread while the resources are planned.
/// `@unchecked Sendable` because: `loaded` is written once, by the loading thread, before it signals `done`, and
/// read only after waiting on `done`, so the semaphore orders the write before every read.
final class PreviousBuildLoader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var loaded: PreviousBuild?

    init(_ builder: PackBuilder) {
        DispatchQueue.global().async {
            self.loaded = builder.loadState()
            self.done.signal()
        }
    }

    /// Waits for the state (once; later calls return at once).
    lazy var previous: PreviousBuild = {
        done.wait()
        return loaded!
    }()
}
