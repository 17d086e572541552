import Foundation

/// The human summary of a build.
public enum BuildReport {
    public static func text(_ build: BuildResult, outputDirectory: String) -> String {
        let total = build.plan.packs.count
        let archiveBytes = build.facts.values.reduce(0) { $0 + $1.archiveSize }
        var out = "Built \(total) pack\(total == 1 ? "" : "s") into \(outputDirectory): "
        out += "\(build.written.count) written, \(build.reused.count) unchanged"
        if !build.removed.isEmpty { out += ", \(build.removed.count) removed" }
        out += "\n"
        out += "  read \(ByteCount.format(build.bytesRead)), wrote \(ByteCount.format(build.bytesWritten)); "
        out += "packs hold \(ByteCount.format(build.plan.totalSize)) in \(ByteCount.format(archiveBytes)) of archives; "
        out += String(format: "%.2f s\n", build.seconds)
        return out
    }
}
