import Foundation
import ODRPackBuild
import ODRPackCore
import ODRPackDiff
import ODRPackPlatform

/// Markdown for a pull-request comment or a GitHub step summary (docs/commands.md#report-and-ci).
package enum MarkdownReport {
    /// `plan` and `validate`: totals against the profile's limits, then the problems.
    package static func plan(_ plan: PackPlan?, diagnostics: [Diagnostic], title: String) -> String {
        var out = "### odrpack: \(escape(title))\n\n"
        if let plan {
            out +=
                """
                \(plan.packs.count) pack\(plan.packs.count == 1 ? "" : "s"), \(plan.resourceFiles) tagged \
                file\(plan.resourceFiles == 1 ? "" : "s"), 
                """
            out += "\(ByteCount.format(plan.totalSize)); profile `\(plan.profileName)`\n\n"
            out += "| What | Size | Limit | Used |\n|---|---:|---:|---:|\n"
            for row in LimitUsage.rows(plan) {
                let limit = row.limit.map { row.isCount ? "\($0)" : ByteCount.format($0) } ?? "none"
                let used = row.usedText
                out +=
                    """
                    | \(row.name) | \(row.isCount ? "\(row.value)" : ByteCount.format(row.value)) | \(limit) | \(used) \
                    |\n
                    """
            }
            out += "\n"
        }
        out += problems(diagnostics)
        return out
    }

    /// The problems as a list (none: a line that says so).
    /// A build's step summary: the plan against its limits and the problems, or that nothing changed.
    package static func build(_ outcome: BuildOutcome, manifestPath: String) -> String {
        switch outcome {
        case .upToDate:
            return "### odrpack build \(escape(manifestPath))\n\nUp to date.\n\n" + problems(outcome.diagnostics)
        case .notBuilt:
            return plan(outcome.plan, diagnostics: outcome.diagnostics, title: "build \(manifestPath): nothing written")
        case .built:
            return plan(outcome.plan, diagnostics: outcome.diagnostics, title: "build \(manifestPath)")
        }
    }

    package static func problems(_ diagnostics: [Diagnostic]) -> String {
        guard !diagnostics.isEmpty else { return "No problems.\n" }
        var out = "**\(Console.countSummary(diagnostics))**\n\n"
        for diagnostic in diagnostics.inPositionOrder {
            let place = diagnostic.location.map { "`\(escape($0.file)):\($0.line):\($0.column)` " } ?? ""
            out +=
                """
                - \(diagnostic.severity == .error ? "❌" : "⚠️") \(place)\(escape(diagnostic.message)) \
                (`\(diagnostic.code.rawValue)`)\n
                """
        }
        return out
    }

    /// `diff --markdown`: packs changed of total, re-download bytes per category, the 20 largest changes.
    package static func diff(_ diff: BuildDiff) -> String {
        var out = "### odrpack diff\n\n"
        out += "**\(diff.packsChanged) of \(diff.packs.count) pack\(diff.packs.count == 1 ? "" : "s") changed.** "
        out += "Devices that hold the old version download again:\n\n"
        out += "| Category | Download | Installed |\n|---|---:|---:|\n"
        for (name, download, installed) in [
            ("initial-install", diff.redownloadDownloadInitialInstall, diff.redownloadInitialInstall),
            ("prefetch", diff.redownloadDownloadPrefetch, diff.redownloadPrefetch),
            ("on-demand", diff.redownloadDownloadOnDemand, diff.redownloadOnDemand),
        ] {
            out += "| \(name) | \(ByteCount.format(download)) | \(ByteCount.format(installed)) |\n"
        }
        out += "\n"
        if !diff.downloadsArchives {
            out += "Folder layout: no archives, so the download figures are the resource bytes.\n\n"
        }
        if let note = DiffReport.prefetchOrderNote(diff) { out += "**\(note).**\n\n" }
        let tags = DiffReport.changedTags(diff)
        if !tags.isEmpty {
            out += "| Tag | Status | Category | Download | Installed |\n|---|---|---|---:|---:|\n"
            for tag in tags {
                out +=
                    """
                    | \(escape(tag.name)) | \(tag.status.rawValue) | \(tag.category.rawValue) | \
                    \(ByteCount.format(tag.redownloadDownloadSize)) | \(ByteCount.format(tag.redownloadSize)) |\n
                    """
            }
            out += "\n"
        }
        if let upload = diff.upload {
            out +=
                upload.isEmpty
                ? "Nothing to upload: every asset pack is unchanged.\n\n"
                : "**Upload \(upload.count) asset pack\(upload.count == 1 ? "" : "s")** (new versions): \(upload.map { "`\($0)`" }.joined(separator: ", "))\n\n"
            if let retired = diff.retired, !retired.isEmpty {
                out +=
                    """
                    **Retired \(retired.count) asset pack\(retired.count == 1 ? "" : "s")**: \
                    \(retired.map { "`\($0)`" }.joined(separator: ", ")). \
                    \(DiffReport.retiredMeaning(diff.hosting))\n\n
                    """
            }
        }
        let changes = diff.packs.filter { $0.status != .unchanged }
            .sorted { (changeBytes($0), $1.id) > (changeBytes($1), $0.id) }
        guard !changes.isEmpty else {
            return out + (diff.hasChanges ? "Only tags or file homes changed.\n" : "No pack changed.\n")
        }
        out +=
            """
            | Pack | Status | Category | Old size | New size | Difference | Download | Installed | Files (+ added, − \
            removed, ~ modified, moved) |\n|---|---|---|---:|---:|---:|---:|---:|---|\n
            """
        for pack in changes.prefix(20) {
            // A priority that changed with the files is said here; with no file changed, the reason says it.
            let priority = pack.downloadReason == nil ? DiffReport.priority(pack) : ""
            out += "| \(escape(pack.shortName)) | \(pack.status.rawValue) | \(DiffReport.category(pack))\(priority) | "
            out += "\(pack.oldSize.map(ByteCount.format) ?? "-") | \(pack.newSize.map(ByteCount.format) ?? "-") | "
            let difference = pack.oldSize.flatMap { old in pack.newSize.map { DiffReport.signed($0, minus: old) } }
            out += "\(difference ?? "-") | \(ByteCount.format(pack.redownloadDownloadSize)) | "
            out += "\(ByteCount.format(pack.redownloadSize)) | \(pack.downloadReason ?? DiffReport.filesCell(pack)) |\n"
        }
        if changes.count > 20 {
            out += "\n… and \(changes.count - 20) more changed packs (see `odrpack diff --json`).\n"
        }
        if !diff.moves.isEmpty {
            out +=
                """
                \n\(diff.moves.count) file\(diff.moves.count == 1 ? "" : "s") moved between packs (their tags \
                changed).\n
                """
        }
        return out
    }

    /// How big a change is: the bytes that changed hands (new size, old size for a removed pack).
    static func changeBytes(_ pack: BuildDiff.PackChange) -> Int64 {
        pack.status == .removed ? pack.oldSize ?? 0 : max(pack.newSize ?? 0, pack.redownloadSize)
    }

    /// Keeps table cells and list items intact.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
