import ODRPackCore
import ODRPackFormats
import ODRPackPlatform
import ODRPackReport

/// What `upload` prints (docs/store.md#upload): a line per pack as it finishes, a summary, or one `--json` document.
package enum UploadReport {
    /// `uploaded level-2-1a2b3c4d: version 7, 41.2 MB, PROCESSING`
    package static func line(_ pack: UploadOutcome.Pack) -> String {
        let size = ByteCount.format(pack.bytes)
        switch pack.action {
        case .uploaded, .skipped:
            var text = "\(pack.action.rawValue) \(pack.assetPackId): version \(pack.version ?? "?"), \(size), "
            text += pack.state?.rawValue ?? "?"
            if let note = pack.note { text += " (\(note))" }
            for error in pack.stateErrors { text += "\n  \(error)" }
            return text + "\n"
        case .wouldUpload:
            return "would upload \(pack.assetPackId): \(size), \(pack.note ?? "a new version")\n"
        case .wouldFail:
            return "would fail \(pack.assetPackId): \(size), \(pack.note ?? "archived")\n"
        }
    }

    /// The closing lines: what was sent (or would be), the quota after this upload, and the ids the build no longer
    /// makes.
    package static func summary(_ outcome: UploadOutcome) -> String {
        let sent = outcome.packs.filter { $0.action == .uploaded || $0.action == .wouldUpload }
        let bytes = ByteCount.format(sent.reduce(Int64(0)) { $0 + $1.bytes })
        let skipped = outcome.packs.filter { $0.action == .skipped }.count
        let failing = outcome.packs.filter { $0.action == .wouldFail }.count
        let packs = "\(sent.count) pack\(sent.count == 1 ? "" : "s") (\(bytes))"
        var text =
            (outcome.dryRun ? "dry run: would upload \(packs)" : "uploaded \(packs)")
            + (skipped > 0 ? ", \(skipped) already uploaded" : "")
            + (failing > 0 ? ", \(failing) would fail (archived id)" : "") + " to app \(outcome.app)\n"
        if let quota = outcome.quota {
            if quota.isExceeded && !outcome.dryRun {
                text = "nothing uploaded to app \(outcome.app): the quota would be exceeded (ba-quota-exceeded)\n"
            }
            text += quotaLine(quota)
            if !quota.notInBuild.isEmpty {
                text +=
                    "App Store Connect has \(quota.notInBuild.count) id\(quota.notInBuild.count == 1 ? "" : "s") this "
                    + "build does not make: \(quota.notInBuild.joined(separator: ", ")) (they count against the quota "
                    + "until archived in App Store Connect, which is permanent and reaches every installed app version)\n"
            }
        }
        return text
    }

    /// `quota: 93 of 100 asset pack ids after this upload (90 now), 41.2 GB of 200 GB after (40 GB now)`
    package static func quotaLine(_ quota: UploadOutcome.Quota) -> String {
        "quota: \(quota.idsAfter) of \(UploadOutcome.Quota.idLimit) asset pack ids after this upload "
            + "(\(quota.ids) now), \(ByteCount.format(quota.bytesAfter)) of "
            + "\(ByteCount.format(UploadOutcome.Quota.byteLimit)) after (\(ByteCount.format(quota.bytes)) now)\n"
    }

    /// `{"schemaVersion": 1, "app", "packs": [...], "quota": {...}, "diagnostics": [...]}`
    package static func json(_ outcome: UploadOutcome) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("schemaVersion", .int(1)),
            ("app", .string(outcome.app)),
            (
                "packs",
                .array(
                    outcome.packs.map { pack in
                        .object(
                            [
                                ("assetPackId", .string(pack.assetPackId)),
                                ("action", .string(pack.action.rawValue)),
                                ("backgroundAssetId", .optional(pack.backgroundAssetId)),
                                ("versionId", .optional(pack.versionId)),
                                ("version", .optional(pack.version)),
                                ("state", .optional(pack.state?.rawValue)),
                                ("bytes", .int(pack.bytes)),
                            ] + (outcome.dryRun ? [("archived", pack.archived.map(JSONValue.bool) ?? .null)] : []))
                    })
            ),
        ]
        if let quota = outcome.quota {
            members.append(
                (
                    "quota",
                    .object([
                        ("ids", .int(Int64(quota.ids))),
                        ("idsLimit", .int(Int64(UploadOutcome.Quota.idLimit))),
                        ("bytes", .int(quota.bytes)),
                        ("bytesLimit", .int(UploadOutcome.Quota.byteLimit)),
                        ("after", .object([("ids", .int(Int64(quota.idsAfter))), ("bytes", .int(quota.bytesAfter))])),
                    ])
                ))
        }
        members.append(("diagnostics", DiagnosticsDocument.json(outcome.diagnostics)))
        return .object(members)
    }
}
