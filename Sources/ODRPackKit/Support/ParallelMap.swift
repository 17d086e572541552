import Foundation

/// Maps on `jobs` threads, taking work in input order; results keep the input order.
/// An error stops the work not yet started; the error of the earliest input is rethrown, so failures are deterministic.
func parallelMap<Input, Output>(_ inputs: [Input], jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                                _ transform: (Input) throws -> Output) throws -> [Output] {
    try parallelMap(inputs, jobs: jobs, perWorker: { () }) { _, input in try transform(input) }
}

/// As above, with one `Worker` per thread (buffers, archive handles) that is never shared between threads.
func parallelMap<Input, Output, Worker>(_ inputs: [Input], jobs: Int, perWorker makeWorker: () -> Worker,
                                        _ transform: (Worker, Input) throws -> Output) throws -> [Output] {
    if inputs.isEmpty { return [] }
    let workers = max(1, min(jobs, inputs.count))
    let results = UnsafeMutableBufferPointer<Output?>.allocate(capacity: inputs.count)
    results.initialize(repeating: nil)
    defer {
        _ = results.deinitialize()
        results.deallocate()
    }
    let lock = NSLock()
    var next = 0
    var failure: (index: Int, error: any Error)?
    let workerStates = (0..<workers).map { _ in makeWorker() }
    withoutActuallyEscaping(transform) { transform in
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            while true {
                let index: Int? = lock.withLock {
                    guard failure == nil, next < inputs.count else { return nil }
                    defer { next += 1 }
                    return next
                }
                guard let index else { return }
                do {
                    results[index] = try transform(workerStates[worker], inputs[index])
                } catch {
                    lock.withLock { if failure.map({ index < $0.index }) ?? true { failure = (index, error) } }
                }
            }
        }
    }
    if let failure { throw failure.error }
    return results.map { $0! }
}
