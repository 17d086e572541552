import Foundation
import ODRPackPlatform

/// Runs `body` over `items` on up to `jobs` threads of their own: `upload`'s work is waiting on the network, which
/// GCD's pool (sized to the cores) would serialize. The first error stops new items from starting and is rethrown,
/// once every started item has finished.
enum UploadWorkers {
    static func map<Input: Sendable, Output: Sendable>(
        _ items: [Input], jobs: Int, _ body: @escaping @Sendable (Input) throws -> Output
    ) throws -> [Output] {
        if items.isEmpty { return [] }
        let state = Locked<(next: Int, results: [Output?], failure: (index: Int, error: any Error)?)>(
            (0, Array(repeating: nil, count: items.count), nil))
        let work: @Sendable () -> Void = {
            while true {
                let index: Int? = state.withLock { state in
                    guard state.failure == nil, state.next < items.count else { return nil }
                    defer { state.next += 1 }
                    return state.next
                }
                guard let index else { return }
                do {
                    let output = try body(items[index])
                    state.withLock { $0.results[index] = output }
                } catch {
                    state.withLock { state in
                        if state.failure.map({ index < $0.index }) ?? true { state.failure = (index, error) }
                    }
                }
            }
        }
        let workers = max(1, min(jobs, items.count))
        let group = DispatchGroup()
        for _ in 1..<workers {
            group.enter()
            let thread = Thread {
                work()
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        work()
        group.wait()
        return try state.withLock { state in
            if let failure = state.failure { throw failure.error }
            return state.results.map { $0! }
        }
    }
}
