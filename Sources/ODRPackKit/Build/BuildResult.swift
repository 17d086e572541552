/// What a build did.
public struct BuildResult: Sendable {
    public var plan: PackPlan
    /// odrpack-manifest.json as the build wrote it.
    public var manifest: BuildManifest
    public var facts: [String: PackArchiveFacts]
    public var options: BuildOptions
    public var written: [String]
    public var reused: [String]
    public var removed: [String]
    public var bytesRead: Int64
    public var bytesWritten: Int64

    /// The bytes of all the pack archives.
    public var archiveBytes: Int64 { facts.values.reduce(0) { $0 + $1.archiveSize } }

    /// What the build did, with the whole command's time (the caller's clock: planning counts too).
    public func summary(seconds: Double) -> BuildSummary {
        BuildSummary(packs: plan.packs.count, written: written.count, reused: reused.count, removed: removed.count,
                     bytesRead: bytesRead, bytesWritten: bytesWritten, contentBytes: plan.totalSize,
                     archiveBytes: archiveBytes, seconds: seconds)
    }
}
