import CZlib
import ODRPackPlatform

/// Raw deflate (no zlib header) through zlib, reused across entries. Owns its `z_stream`, freed in `deinit`.
package final class Deflater {
    private var stream = z_stream()
    private let output: UnsafeMutableRawBufferPointer

    package init(level: Int) throws {
        output = .allocate(byteCount: 256 * 1024, alignment: 16)
        let status = deflateInit2_(
            &stream, Int32(level), Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            output.deallocate()
            throw ODRPackError.library(.deflateStart(status: status))
        }
    }

    deinit {
        deflateEnd(&stream)
        output.deallocate()
    }

    /// Compresses `input` (the last piece when `finish`), handing every compressed piece to `sink`.
    package func compress(_ input: UnsafeRawBufferPointer, finish: Bool, sink: (UnsafeRawBufferPointer) throws -> Void)
        throws
    {
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        while true {
            stream.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(output.count)
            let status = deflate(&stream, finish ? Z_FINISH : Z_NO_FLUSH)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw ODRPackError.library(.deflate(status: status))
            }
            let produced = output.count - Int(stream.avail_out)
            if produced > 0 { try sink(UnsafeRawBufferPointer(rebasing: output[..<produced])) }
            if finish ? status == Z_STREAM_END : (stream.avail_in == 0 && stream.avail_out != 0) { break }
        }
        if finish { deflateReset(&stream) }
    }
}
