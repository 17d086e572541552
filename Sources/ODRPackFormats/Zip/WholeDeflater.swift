import CLibdeflate
import ODRPackPlatform

/// Raw deflate (no wrapper) of an entry held whole in memory, through libdeflate: several times zlib's speed at the
/// same ratio. Entries up to one read chunk take this path and larger ones zlib's streaming `Deflater`; the rule
/// depends only on the entry's size, so the same input gives the same bytes on every machine.
/// Owns its compressor, freed in `deinit`.
package final class WholeDeflater {
    private let compressor: OpaquePointer

    /// - Parameter level: 0-9 as zlib counts them (libdeflate takes the same numbers).
    package init(level: Int) throws {
        guard let compressor = libdeflate_alloc_compressor(Int32(level)) else {
            throw ODRPackError.library(.compressorUnavailable(level: level))
        }
        self.compressor = compressor
    }

    deinit { libdeflate_free_compressor(compressor) }

    /// The deflated bytes of `input`.
    package func compress(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        let bound = libdeflate_deflate_compress_bound(compressor, input.count)
        return [UInt8](unsafeUninitializedCapacity: bound) { output, count in
            count = libdeflate_deflate_compress(compressor, input.baseAddress, input.count, output.baseAddress, bound)
        }
    }

    /// How many bytes `input` deflates to.
    package func compressedCount(_ input: UnsafeRawBufferPointer) -> Int { compress(input).count }
}
