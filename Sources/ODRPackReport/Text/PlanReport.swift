import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// The human form of `plan`: what a person needs to decide, in tables.
package enum PlanReport {
    /// `plan --json` (docs/commands.md): the build manifest's document without contents or archives, plus the diagnostics.
    package static func json(_ result: PlanResult) -> JSONValue {
        var document = result.readablePlan.map { BuildManifest(plan: $0).jsonMembers } ?? []
        if let languages = result.readablePlan.flatMap(languagesJSON) { document.append(("languages", languages)) }
        document.append(("diagnostics", DiagnosticsDocument.json(result.diagnostics)))
        document.append(("allowed", DiagnosticsDocument.json(result.allowed)))
        return .object(document)
    }

    /// `plan --json` written as it is made (docs/build-output.md#bounded): `json(_:)`'s bytes (with `untaggedFiles`
    /// last when given), the manifest's members a pack at a time, so no file of the plan has a second copy or a
    /// `JSONValue`.
    package static func writeJSON(
        _ result: PlanResult, untaggedFiles: [String]? = nil, to stream: inout JSONObjectStream
    ) throws {
        guard let plan = result.readablePlan else {
            try stream.member("schemaVersion", .int(JSONEnvelope.schemaVersion))
            try stream.member("diagnostics", DiagnosticsDocument.json(result.diagnostics))
            try stream.member("allowed", DiagnosticsDocument.json(result.allowed))
            if let untaggedFiles { try stream.member("untaggedFiles", strings: untaggedFiles) }
            return
        }
        // Every pack without its files; each pack's manifest made when its part is written.
        var bare = plan
        for index in bare.packs.indices { bare.packs[index].files = [] }
        let outline = BuildManifest(plan: bare)
        try stream.members { sink in
            try outline.write(
                to: &sink,
                pack: { index in
                    var single = plan
                    single.packs = [plan.packs[index]]
                    return BuildManifest(plan: single).packs[0]
                })
        }
        if let languages = languagesJSON(plan) { try stream.member("languages", languages) }
        try stream.member("diagnostics", DiagnosticsDocument.json(result.diagnostics))
        try stream.member("allowed", DiagnosticsDocument.json(result.allowed))
        if let untaggedFiles { try stream.member("untaggedFiles", strings: untaggedFiles) }
    }

    /// `plan --json`'s `languages` (docs/background-assets.md#languages): per language (and platform, when the plan has
    /// several), the bytes a player downloads at installation and in all; nil without localized packs.
    static func languagesJSON(_ plan: PackPlan) -> JSONValue? {
        let rows = LanguageDownloads.rows(plan)
        guard !rows.isEmpty else { return nil }
        return .array(
            rows.map { row in
                .object([
                    ("language", .string(row.language)), ("platform", .optional(row.platform)),
                    ("initialInstallSize", .int(row.atInstallation)), ("upToSize", .int(row.upTo)),
                ])
            })
    }

    /// `validate --json`: the diagnostics and their counts.
    package static func validationJSON(_ result: PlanResult) -> JSONValue {
        .object([
            ("diagnostics", DiagnosticsDocument.json(result.diagnostics)),
            ("allowed", DiagnosticsDocument.json(result.allowed)),
            ("summary", DiagnosticsDocument.summary(result.diagnostics)),
        ])
    }

    /// `plan --list-untagged`: the files that stay in the app, in code-point order (none with `untagged: ignore`).
    package static func untaggedFiles(_ result: PlanResult) -> [String] {
        (result.resolution?.untaggedFiles ?? []).sorted { $0.precedesByCodePoint($1) }
    }

    package static func text(_ plan: PackPlan, manifestPath: String) -> String {
        var out = "odrpack plan: \(plan.bundleID) (\(manifestPath), profile \(plan.profileName))\n"
        out +=
            """
            Resources: \(plan.resourceFiles) file\(plan.resourceFiles == 1 ? "" : "s"), \
            \(ByteCount.format(plan.totalSize)) in \(plan.packs.count) pack\(plan.packs.count == 1 ? "" : "s")\n
            """
        if plan.countsAppBundle {
            out +=
                """
                App bundle: \(plan.appBundleFiles) untagged file\(plan.appBundleFiles == 1 ? "" : "s"), \
                \(ByteCount.format(plan.appBundleSize)) (stay in the app)\n
                """
        }

        if let platform = plan.platform, plan.otherPlatformFiles > 0 {
            let count = plan.otherPlatformFiles
            out +=
                """
                Platform: \(platform) (--platform): \(count) file\(count == 1 ? "" : "s") of entries for other \
                platforms \(count == 1 ? "is" : "are") not packed\n
                """
        }
        if plan.format == .odr && !plan.manifestLanguages.isEmpty {
            out +=
                """
                Languages: ODR has none: each pack holds every language of its files \
                (\(plan.manifestLanguages.joined(separator: ", "))); --format background-assets makes a pack per \
                language\n
                """
        }
        if plan.format.kind.hasAssetPackIDs {
            out += backgroundAssetsPacks(plan)
        } else {
            out += "\nPacks\n"
            var packs = TextTable([
                ("PACK", .left), ("TAGS", .left), ("FILES", .right), ("SIZE", .right),
                ("CATEGORY", .left), ("PRIORITY", .right),
            ])
            for pack in plan.packs.sorted(by: packOrder) {
                packs.add([
                    shortID(pack.id), pack.shortName, "\(pack.files.count)", ByteCount.format(pack.size),
                    pack.category.rawValue, pack.priority.map(formatPriority) ?? "-",
                ])
            }
            out += plan.packs.isEmpty ? "  (none: no resource is tagged)\n" : packs.render()
        }

        out += "\nTags\n"
        var tags = TextTable([("TAG", .left), ("SIZE", .right), ("PACKS", .right), ("CATEGORY", .left)])
        for tag in plan.tags.sorted(by: { ($0.category, $0.name) < ($1.category, $1.name) }) {
            tags.add([tag.name, ByteCount.format(tag.size), "\(tag.packs.count)", tag.category.rawValue])
        }
        out += plan.tags.isEmpty ? "  (none)\n" : tags.render()

        out += "\nTotals against limits (profile \(plan.profileName))\n"
        var totals = TextTable([("WHAT", .left), ("SIZE", .right), ("LIMIT", .right), ("USED", .right)])
        for row in LimitUsage.rows(plan) where row.key != .recommendedSize {
            let used = row.usedText
            totals.add([
                row.name, row.isCount ? "\(row.value)" : ByteCount.format(row.value),
                row.limit.map { row.isCount ? "\($0)" : ByteCount.format($0) } ?? "none", used,
            ])
        }
        out += totals.render()
        return out
    }

    /// The Background Assets packs: each asset pack id and download policy, the settings, and whether a prefetch
    /// order is lost (Background Assets has none).
    static func backgroundAssetsPacks(_ plan: PackPlan) -> String {
        let settings = plan.backgroundAssets
        var out =
            """
            Background Assets: hosting \(settings.hosting.rawValue), platforms \
            \((settings.platforms ?? []).joined(separator: ", ")), 
            """
        out +=
            """
            events \(settings.events.joined(separator: ", ")), app group \
            \(settings.appGroup ?? "not set (thin needs --app-group)")\n
            """
        out += "\nAsset packs\n"
        var packs = TextTable([
            ("ASSET PACK ID", .left), ("TAGS", .left), ("LANGUAGE", .left), ("FILES", .right), ("SIZE", .right),
            ("CATEGORY", .left), ("DOWNLOAD POLICY", .left),
        ])
        for pack in plan.packs.sorted(by: packOrder) {
            let policy = plan.downloadPolicy(of: pack)
            let policyText = policy.name + (policy.events.map { " (\($0.joined(separator: ", ")))" } ?? "")
            packs.add([
                pack.assetPackID, pack.shortName, pack.language ?? "-", "\(pack.files.count)",
                ByteCount.format(pack.size), pack.category.rawValue, policyText,
            ])
        }
        out += plan.packs.isEmpty ? "  (none: no resource is tagged)\n" : packs.render()
        out += languageDownloads(plan)
        if plan.prefetchOrder.count > 1 {
            out +=
                """
                Note: Background Assets has no prefetch order: the \(plan.prefetchOrder.count) prefetch tags \
                (\(plan.prefetchOrder.joined(separator: ", "))) download together after installation, in no set \
                order.\n
                """
        }
        return out
    }

    /// Per language, what a player downloads at installation and in all (docs/background-assets.md#languages), and that
    /// older systems get no localized pack; nothing without localized packs.
    static func languageDownloads(_ plan: PackPlan) -> String {
        let rows = LanguageDownloads.rows(plan)
        guard !rows.isEmpty else { return "" }
        let byPlatform = rows.contains { $0.platform != nil }
        var table = TextTable(
            (byPlatform ? [("PLATFORM", TextTable.Alignment.left)] : []) + [
                ("LANGUAGE", .left), ("AT INSTALLATION", .right), ("UP TO", .right),
            ])
        for row in rows {
            table.add(
                (byPlatform ? [row.platform ?? "-"] : []) + [
                    row.language, ByteCount.format(row.atInstallation), ByteCount.format(row.upTo),
                ])
        }
        return "\nPer language (essential packs without a language + that language's; up to: every pack without a "
            + "language + that language's)\n" + table.render()
                + """
                Note: devices below iOS, iPadOS, tvOS and visionOS 27 receive no localized pack: the packs without a \
                language must serve them.\n
                """
    }

    /// Initial-install first, then prefetch by priority, then on-demand, then by tags.
    static func packOrder(_ a: AssetPack, _ b: AssetPack) -> Bool {
        if a.category != b.category { return a.category < b.category }
        if (a.priority ?? 0) != (b.priority ?? 0) { return (a.priority ?? 0) > (b.priority ?? 0) }
        return a.shortName < b.shortName
    }

    /// `asset-pack-1577c8b9`: enough of the id to tell packs apart.
    static func shortID(_ id: String) -> String {
        guard let range = id.range(of: ".asset-pack-", options: .backwards) else { return id }
        return "asset-pack-" + id[range.upperBound...].prefix(8)
    }

    static func formatPriority(_ value: Double) -> String {
        let text = String(format: "%.3f", value)
        var trimmed = text
        while trimmed.hasSuffix("0") && !trimmed.hasSuffix(".0") { trimmed.removeLast() }
        return trimmed
    }
}
