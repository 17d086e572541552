import Foundation

/// Maps on `jobs` threads, taking work in input order; results keep the input order. More jobs than cores get
/// threads of their own (signers and packagers mostly wait, so `--jobs N` means N at once, docs/commands.md), and so
/// does work that waits on the network whatever the core count (`ownThreads`: `upload`'s packs and parts, which
/// GCD's pool, sized to the cores, would serialize). An error stops the work not yet started; the error of the
/// earliest input is rethrown, once every started input has finished, so failures are deterministic.
package func parallelMap<Input, Output>(
    _ inputs: [Input], jobs: Int = SystemCall.processorCount, ownThreads: Bool = false,
    _ transform: (Input) throws -> Output
) throws -> [Output] {
    try parallelMap(inputs, jobs: jobs, ownThreads: ownThreads, perWorker: { () }) { _, input in try transform(input) }
}

/// As above, with one `Worker` per thread (buffers, zlib states) that is never shared between threads.
package func parallelMap<Input, Output, Worker>(
    _ inputs: [Input], jobs: Int, ownThreads: Bool = false, perWorker makeWorker: () -> Worker,
    _ transform: (Worker, Input) throws -> Output
) throws -> [Output] {
    if inputs.isEmpty { return [] }
    let workers = max(1, min(jobs, inputs.count))
    return try withoutActuallyEscaping(transform) { transform in
        let work = ParallelWork(inputs: inputs, workers: (0..<workers).map { _ in makeWorker() }, transform: transform)
        if workers <= SystemCall.processorCount && !ownThreads {
            DispatchQueue.concurrentPerform(iterations: workers) { work.run(worker: $0) }
        } else {
            // concurrentPerform never runs more at once than there are cores.
            let group = DispatchGroup()
            for index in 1..<workers {
                group.enter()
                // Unowned: a thread keeps its block until it is freed, which may be after this returns, and the
                // transform must not outlive withoutActuallyEscaping. `group.wait()` keeps `work` alive while it runs.
                let started = startThread { [unowned work] in
                    work.run(worker: index)
                    group.leave()
                }
                // A thread the system refuses (`ulimit -u`, a memory limit with `--jobs 256`): the work runs on the
                // threads it got, as inputs are taken one at a time by whichever thread is free; never a wait for a
                // thread that does not exist (docs/build-output.md#bounded).
                if !started {
                    group.leave()
                    break
                }
            }
            work.run(worker: 0)
            group.wait()
        }
        return try work.results()
    }
}

/// What the threads of one `parallelMap` share.
/// `@unchecked Sendable` because: `inputs`, `workers` and `transform` are only read, and each worker value is used
/// by the one thread of its index; every result slot is written once, by the thread that took its index from
/// `claim` (behind its lock), and read only after `concurrentPerform` has returned, which happens after every
/// thread has finished; nothing here outlives the `parallelMap` call that made it.
private final class ParallelWork<Input, Output, Worker>: @unchecked Sendable {
    let inputs: [Input]
    let workers: [Worker]
    let transform: (Worker, Input) throws -> Output
    private let slots: UnsafeMutableBufferPointer<Output?>
    /// The next input to take, and the earliest failure so far.
    private let claim = Locked<(next: Int, failure: (index: Int, error: any Error)?)>((0, nil))

    init(inputs: [Input], workers: [Worker], transform: @escaping (Worker, Input) throws -> Output) {
        self.inputs = inputs
        self.workers = workers
        self.transform = transform
        slots = .allocate(capacity: inputs.count)
        slots.initialize(repeating: nil)
    }

    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
    }

    func run(worker: Int) {
        while true {
            let index: Int? = claim.withLock { state in
                guard state.failure == nil, state.next < inputs.count else { return nil }
                defer { state.next += 1 }
                return state.next
            }
            guard let index else { return }
            do {
                slots[index] = try transform(workers[worker], inputs[index])
            } catch {
                claim.withLock { state in
                    if state.failure.map({ index < $0.index }) ?? true { state.failure = (index, error) }
                }
            }
        }
    }

    func results() throws -> [Output] {
        if let failure = claim.withLock({ $0.failure }) { throw failure.error }
        return slots.map { $0! }
    }
}

/// Runs `body` on a new detached thread; false, without running it, when the system cannot make one (EAGAIN: a limit
/// on processes or memory). Foundation's `Thread.start()` would then never run its block, and nothing would say so.
func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
        &thread, nil,
        { context in
            let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
    guard result == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(context).release()
        return false
    }
    pthread_detach(thread)
    return true
}

/// A thread's block, passed through `pthread_create`'s context pointer.
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
