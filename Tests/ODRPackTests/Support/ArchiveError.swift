import CArchive

/// A libarchive failure, with libarchive's own message.
public struct ArchiveError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }

    /// Turns a libarchive return code into an error; `ARCHIVE_WARN` is not a failure.
    static func check(_ code: Int32, _ archive: OpaquePointer?, _ what: @autoclosure () -> String) throws {
        guard code < ARCHIVE_WARN else { return }
        let message = archive.flatMap { archive_error_string($0) }.map { String(cString: $0) } ?? "error \(code)"
        throw ArchiveError("\(what()): \(message)")
    }
}
