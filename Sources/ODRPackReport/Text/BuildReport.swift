import Foundation
import ODRPackBuild
import ODRPackCore

/// The human summary of a build.
package enum BuildReport {
    package static func text(_ build: BuildSummary, outputDirectory: String) -> String {
        var out = "Built \(build.packs) pack\(build.packs == 1 ? "" : "s") into \(outputDirectory): "
        out += "\(build.written) written, \(build.reused) unchanged"
        if build.removed > 0 { out += ", \(build.removed) removed" }
        out += "\n"
        out += "  read \(ByteCount.format(build.bytesRead)), wrote \(ByteCount.format(build.bytesWritten)); "
        out +=
            "packs hold \(ByteCount.format(build.contentBytes)) in \(ByteCount.format(build.archiveBytes)) of archives; "
        out += String(format: "%.2f s\n", build.seconds)
        return out
    }
}
