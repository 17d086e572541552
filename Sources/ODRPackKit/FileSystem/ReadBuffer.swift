/// A fixed buffer for streaming reads, freed with its owner (one per worker thread).
final class ReadBuffer {
    let bytes: UnsafeMutableRawBufferPointer

    init(size: Int) { bytes = .allocate(byteCount: size, alignment: 16) }

    deinit { bytes.deallocate() }
}
