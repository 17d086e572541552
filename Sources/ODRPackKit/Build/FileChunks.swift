#if canImport(Glibc)
import Glibc
#endif

/// Streams an open file through a caller's buffer: the one read loop of the build, so no file is ever held whole.
enum FileChunks {
    /// Calls `body` with each chunk until the end of the file, or until more than `limit` bytes were read
    /// (a file that grew). Returns the bytes read; the caller compares it with the size it expected.
    static func read(_ descriptor: Int32, path: String, buffer: UnsafeMutableRawBufferPointer, limit: Int64,
                     _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        var total: Int64 = 0
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw BuildError.system("cannot read '\(path)'")
            }
            if count == 0 { return total }
            total += Int64(count)
            if total > limit { return total }
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
