import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to stdout or stderr with `write(2)`: a failed write (disk full, closed pipe) is an error the
/// front end turns into exit 2, where Foundation's `FileHandle.write(_:)` would trap.
public enum StandardStream {
    public static func write(_ text: String, to descriptor: Int32) throws {
        var text = text
        try text.withUTF8 { bytes in
            let failure = SystemCall.writeAll(descriptor, UnsafeRawBufferPointer(bytes))
            guard failure == 0 else {
                throw ODRPackError.system("cannot write to \(descriptor == STDOUT_FILENO ? "standard output" : "standard error")", failure)
            }
        }
    }
}
