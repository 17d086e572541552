/// The figures the human summary of a build shows.
public struct BuildSummary: Sendable, Equatable {
    public var packs: Int
    public var written: Int
    public var reused: Int
    public var removed: Int
    public var bytesRead: Int64
    public var bytesWritten: Int64
    /// Bytes of content in all packs, and of their archives.
    public var contentBytes: Int64
    public var archiveBytes: Int64
    public var seconds: Double
}
