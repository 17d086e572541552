/// Why a compression library odrpack calls (zlib, libdeflate) failed, as a fact of `ODRPackError.library`: the
/// library's own status where it gives one.
package enum LibraryFailure: Sendable, Equatable {
    /// libdeflate could not allocate a compressor (out of memory), at this level where the caller chose one.
    case compressorUnavailable(level: Int?)
    /// libdeflate could not allocate a decompressor (out of memory).
    case decompressorUnavailable
    /// zlib's `deflateInit2` answered this status.
    case deflateStart(status: Int32)
    /// zlib's `deflate` answered this status.
    case deflate(status: Int32)
    /// An entry (its name in the zip) deflated to more than `deflateBound` said it could.
    case overBound(entry: String)
}

extension LibraryFailure: CustomStringConvertible {
    package var description: String {
        switch self {
        case .compressorUnavailable(nil): return "cannot set up libdeflate's compressor: out of memory"
        case .compressorUnavailable(let level?):
            return "cannot set up libdeflate's compressor at level \(level): out of memory"
        case .decompressorUnavailable: return "cannot set up libdeflate's decompressor: out of memory"
        case .deflateStart(let status): return "cannot start zlib's deflate (status \(status))"
        case .deflate(let status): return "zlib's deflate failed (status \(status))"
        case .overBound(let entry): return "'\(entry)' deflated to more than zlib's bound"
        }
    }
}
