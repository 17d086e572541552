import Foundation
import ODRPackPlatform

/// Loads the previous build's state on another thread while the resources are planned. Any thread may ask for it,
/// any number of times: the first to ask waits for the load, the others wait for the same result.
final class PreviousBuildLoader: Sendable {
    private let loaded = Locked<PreviousBuild?>(nil)
    private let group = DispatchGroup()

    convenience init(_ builder: PackBuilder) {
        self.init { builder.loadState() }
    }

    /// - Parameter load: what to load (`RecordedChecks` looks for the state in the cache folder).
    init(_ load: @escaping @Sendable () -> PreviousBuild) {
        group.enter()
        DispatchQueue.global().async { [loaded, group] in
            let state = load()
            loaded.withLock { $0 = state }
            group.leave()
        }
    }

    /// Waits for the state; every later call returns at once. A `DispatchGroup` wait can be repeated by any number of
    /// threads, unlike the semaphore a `lazy var` once guarded, which only the first could pass.
    var previous: PreviousBuild {
        group.wait()
        return loaded.withLock { $0! }
    }
}
