import CLibdeflate
import ODRPackPlatform

/// Raw inflate of an entry whose compressed bytes are all in memory, through libdeflate, which is faster than zlib.
/// Succeeds only on a stream that uses exactly the bytes given and gives exactly the size expected; anything else
/// is left to zlib's streaming inflate, which then reports the damage as before. Owns its decompressor and output.
final class WholeInflater {
    /// The largest uncompressed entry taken whole: the writer's whole-entry limit.
    static let limit = 4 << 20

    private let decompressor: OpaquePointer
    private let output = UnsafeMutableRawBufferPointer.allocate(byteCount: WholeInflater.limit, alignment: 16)

    init() throws {
        guard let decompressor = libdeflate_alloc_decompressor() else {
            output.deallocate()
            throw ODRPackError.library(.decompressorUnavailable)
        }
        self.decompressor = decompressor
    }

    deinit {
        libdeflate_free_decompressor(decompressor)
        output.deallocate()
    }

    /// The `size` bytes `input` inflates to, valid until the next call; nil unless the stream ends exactly at the
    /// end of `input` having produced exactly `size` bytes.
    func inflate(_ input: UnsafeRawBufferPointer, size: Int) -> UnsafeRawBufferPointer? {
        guard size <= Self.limit else { return nil }
        var used = 0
        var produced = 0
        let result = libdeflate_deflate_decompress_ex(
            decompressor, input.baseAddress, input.count, output.baseAddress, size,
            &used, &produced)
        guard result == LIBDEFLATE_SUCCESS, used == input.count, produced == size else { return nil }
        return UnsafeRawBufferPointer(rebasing: output[..<size])
    }
}
