import ODRPackPlatform

/// The build's spare compressors, shared by every pack writer. A writer with a batch of small entries borrows what
/// is free, so one large pack of small files uses every core once the other packs are done, while the whole build
/// holds at most `capacity` spare zlib states and buffers (made only when first wanted), whatever `--jobs` and the
/// number of packs: per-writer pools of `jobs` each grew with jobs².
final class CompressorPool: Sendable {
    let options: BuildOptions
    let capacity: Int
    /// The free compressors, and how many were made.
    private let state = Locked<(free: [EntryCompressor], made: Int)>(([], 0))

    init(options: BuildOptions, capacity: Int) {
        self.options = options
        self.capacity = capacity
    }

    /// Up to `count` compressors that no other thread uses (possibly none); give them back when done.
    func borrow(upTo count: Int) -> [EntryCompressor] {
        guard count > 0 else { return [] }
        let (taken, toMake) = state.withLock { state -> ([EntryCompressor], Int) in
            let taken = Array(state.free.suffix(count))
            state.free.removeLast(taken.count)
            let toMake = min(count - taken.count, capacity - state.made)
            state.made += toMake
            return (taken, toMake)
        }
        return taken + (0..<toMake).map { _ in EntryCompressor(options: options) }
    }

    func giveBack(_ compressors: [EntryCompressor]) {
        guard !compressors.isEmpty else { return }
        state.withLock { $0.free += compressors }
    }
}
