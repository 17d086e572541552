import Foundation

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

/// The human summary of a build.
public enum BuildReport {
    public static func text(_ build: BuildSummary, outputDirectory: String) -> String {
        var out = "Built \(build.packs) pack\(build.packs == 1 ? "" : "s") into \(outputDirectory): "
        out += "\(build.written) written, \(build.reused) unchanged"
        if build.removed > 0 { out += ", \(build.removed) removed" }
        out += "\n"
        out += "  read \(ByteCount.format(build.bytesRead)), wrote \(ByteCount.format(build.bytesWritten)); "
        out += "packs hold \(ByteCount.format(build.contentBytes)) in \(ByteCount.format(build.archiveBytes)) of archives; "
        out += String(format: "%.2f s\n", build.seconds)
        return out
    }
}
