import Foundation
import ODRPackBuild
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats

/// The human summary of a build.
package enum BuildReport {
    /// - Parameter layout: `folder` packs are folders, and the summary says so rather than "archives".
    package static func text(_ build: BuildSummary, outputDirectory: String, layout: PackLayout = .zip) -> String {
        var out = "Built \(build.packs) pack\(build.packs == 1 ? "" : "s") into \(outputDirectory): "
        out += "\(build.written) written, \(build.reused) unchanged"
        if build.removed > 0 { out += ", \(build.removed) removed" }
        out += "\n"
        out += "  read \(ByteCount.format(build.bytesRead)), wrote \(ByteCount.format(build.bytesWritten)); "
        out +=
            """
            packs hold \(ByteCount.format(build.contentBytes)) in \(ByteCount.format(build.archiveBytes)) of \
            \(layout == .folder ? "pack folders" : "archives"); 
            """
        out += String(format: "%.2f s\n", build.seconds)
        return out
    }

    /// `build --summary`: the packs as `plan`'s table shows them, with what the build made of each: its archive's
    /// bytes beside the installed ones, and whether this build wrote it or kept it unchanged.
    /// - Parameter written: the ids this build wrote; every other pack was unchanged.
    package static func packTable(_ manifest: BuildManifest, written: Set<String>, layout: PackLayout = .zip) -> String
    {
        var table = TextTable([
            ("PACK", .left), ("TAGS", .left), ("FILES", .right), ("INSTALLED", .right),
            (layout == .folder ? "FOLDER" : "ARCHIVE", .right), ("STATUS", .left),
        ])
        let packs = manifest.packs.sorted {
            if $0.category != $1.category { return $0.category < $1.category }
            if ($0.priority ?? 0) != ($1.priority ?? 0) { return ($0.priority ?? 0) > ($1.priority ?? 0) }
            return $0.tags.joined(separator: "+") < $1.tags.joined(separator: "+")
        }
        for pack in packs {
            table.add([
                PlanReport.shortID(pack.id), TerminalText.escaped(pack.tags.joined(separator: "+")),
                "\(pack.files.count)", ByteCount.format(pack.size), pack.archiveSize.map(ByteCount.format) ?? "-",
                written.contains(pack.id) ? "written" : "unchanged",
            ])
        }
        return "\nPacks\n" + (packs.isEmpty ? "  (none: no resource is tagged)\n" : table.render())
    }

    /// The `build --json` document (docs/commands.md), written as it is made (docs/build-output.md#bounded): the
    /// manifest's members streamed from its writer (a build) or from the file the last build wrote (nothing changed),
    /// never held whole; then the diagnostics, the warnings the manifest allows and what was done; only those when
    /// nothing was built.
    package static func writeJSON(_ outcome: BuildOutcome, to stream: inout JSONObjectStream) throws {
        switch outcome {
        case .upToDate(let replay, let manifest):
            guard let manifest else {
                try stream.member("schemaVersion", .int(JSONEnvelope.schemaVersion))
                try stream.member("diagnostics", DiagnosticsDocument.json(replay.diagnostics))
                try stream.member("allowed", DiagnosticsDocument.json(replay.allowed))
                return
            }
            try stream.members(of: manifest.write)
            try stream.member("diagnostics", DiagnosticsDocument.json(replay.diagnostics))
            try stream.member("allowed", DiagnosticsDocument.json(replay.allowed))
            try stream.member("build", done(written: [], reused: replay.reused, removed: []))
        case .notBuilt(let result):
            try stream.member("schemaVersion", .int(JSONEnvelope.schemaVersion))
            try stream.member("diagnostics", DiagnosticsDocument.json(result.diagnostics))
            try stream.member("allowed", DiagnosticsDocument.json(result.allowed))
        case .built(let result, let build):
            if let written = build.writtenManifest {
                try stream.members(of: written.write)
            } else {
                let manifest = build.manifest
                try stream.members { _ = try manifest.write(to: &$0) }
            }
            try stream.member("diagnostics", DiagnosticsDocument.json(result.diagnostics))
            try stream.member("allowed", DiagnosticsDocument.json(result.allowed))
            try stream.member("build", done(written: build.written, reused: build.reused, removed: build.removed))
        }
    }

    private static func done(written: [String], reused: [String], removed: [String]) -> JSONValue {
        .object([("written", .strings(written)), ("reused", .strings(reused)), ("removed", .strings(removed))])
    }
}
