import Foundation
import ODRPackPlatform

/// A property list value written as a binary plist (`bplist00`) with sorted dictionary keys,
/// so the same value always gives the same bytes.
package enum PropertyListValue: Equatable, Sendable {
    case bool(Bool)
    case int(Int64)
    case real(Double)
    case string(String)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])
    case data([UInt8])
    /// Seconds since 2001-01-01T00:00:00Z, as binary plists store dates.
    case date(Double)

    package func binaryData() -> Data {
        // A sink in memory never fails.
        Data((try? DocumentSink.bytes { try write(to: &$0) }) ?? [])
    }

    /// Writes the binary plist into `sink` (`BinaryPropertyListStream`): the bytes of `binaryData()`.
    package func write(to sink: inout DocumentSink) throws {
        try BinaryPropertyListStream.write(to: &sink) { try $0.value(self) }
    }
}
