/// The figures the human summary of a build shows.
package struct BuildSummary: Sendable, Equatable {
    package var packs: Int
    package var written: Int
    package var reused: Int
    package var removed: Int
    package var bytesRead: Int64
    package var bytesWritten: Int64
    /// Bytes of content in all packs, and of their archives.
    package var contentBytes: Int64
    package var archiveBytes: Int64
    package var seconds: Double
}
