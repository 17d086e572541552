/// A fixed buffer for streaming reads, freed with its owner (one per worker thread).
package final class ReadBuffer {
    package let bytes: UnsafeMutableRawBufferPointer

    package init(size: Int) { bytes = .allocate(byteCount: size, alignment: 16) }

    deinit { bytes.deallocate() }
}
