/// The figures the human summary of a build shows.
package struct BuildSummary: Sendable, Equatable {
    package var packs: Int
    package let written: Int
    package let reused: Int
    package let removed: Int
    package let bytesRead: Int64
    package let bytesWritten: Int64
    /// Bytes of content in all packs, and of their archives.
    package let contentBytes: Int64
    package let archiveBytes: Int64
    package let seconds: Double
}
