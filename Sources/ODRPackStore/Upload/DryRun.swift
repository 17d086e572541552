import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// `upload --dry-run` (docs/store.md#upload): GET requests only. For each selected pack, what App Store Connect has
/// and what `upload` would do (an archived id, where a real upload stops with exit 2, is a `ba-id-archived` error and exit 1,
/// after the rest); then the app's quota (ids of 100, bytes of 200 GB, `ba-quota` past 90%) and the ids App Store
/// Connect has that this build no longer makes.
struct DryRun: Sendable {
    let api: BackgroundAssetsAPI
    let app: String
    let record: UploadRecord
    let jobs: Int
    let events: UploadEvents

    func run(_ archives: [PackArchive], build: BuildManifest) throws -> UploadOutcome {
        // One listing answers for every pack's id and the quota.
        let assets = try api.backgroundAssets(app: app, pack: nil)
        let byID = Dictionary(
            assets.map { ($0.assetPackIdentifier, $0) },
            uniquingKeysWith: { first, second in
                first.archived ? second : first
            })
        // In asset pack id order, whatever order the manifest lists them in (docs/store.md#upload).
        let ordered = archives.sorted { $0.assetPackId.precedesByCodePoint($1.assetPackId) }
        let packs = try parallelMap(ordered, jobs: jobs, ownThreads: true) { archive -> UploadOutcome.Pack in
            try look(at: archive, asset: byID[archive.assetPackId])
        }
        // Printed once every look is back, so the lines too come in asset pack id order.
        for pack in packs { events.finished(pack) }
        var outcome = UploadOutcome(app: app, dryRun: true, packs: packs)
        outcome.diagnostics = Self.archivedIDs(packs)
        let quota = Self.quota(assets: assets, packs: packs, build: build)
        outcome.quota = quota
        outcome.diagnostics += Self.quotaWarnings(quota)
        return outcome
    }

    /// A `ba-id-archived` error for each pack App Store Connect has archived: where a real upload stops (exit 2).
    static func archivedIDs(_ packs: [UploadOutcome.Pack]) -> [Diagnostic] {
        packs.filter { $0.action == .wouldFail }.map { pack in
            .error(
                .baIDArchived,
                """
                pack '\(pack.assetPackId)': App Store Connect has this asset pack id archived, and archiving is \
                permanent: upload would stop here (exit 2); rename one of the pack's tags to get a new id, then \
                build and upload again
                """,
                subject: pack.assetPackId)
        }
    }

    /// The app's quota as this upload would leave it: ids not archived (and the new ones the packs would add), their
    /// bytes, and the ids this build no longer makes.
    static func quota(
        assets: [BackgroundAssetResource], packs: [UploadOutcome.Pack], build: BuildManifest
    ) -> UploadOutcome.Quota {
        let live = assets.filter { !$0.archived }
        let built = Set(build.packs.map { $0.assetPackId ?? $0.id })
        let newIDs = packs.filter { $0.backgroundAssetId == nil && $0.action == .wouldUpload }.count
        return UploadOutcome.Quota(
            ids: live.count, idsAfterUpload: live.count + newIDs, usedBytes: saturatingSum(live.map(\.usedBytes)),
            notInBuild: live.map(\.assetPackIdentifier).filter { !built.contains($0) }.sorted {
                $0.precedesByCodePoint($1)
            })
    }

    /// `ba-quota` past 90% of the ids or of the bytes.
    static func quotaWarnings(_ quota: UploadOutcome.Quota) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        let idsAfter = quota.idsAfterUpload
        if idsAfter * 10 > UploadOutcome.Quota.idLimit * 9 {
            warnings.append(
                .warning(
                    .baQuota,
                    """
                    App Store Connect would hold \(idsAfter) asset pack ids of the app's \(UploadOutcome.Quota.idLimit) \
                    (past 90%): ids count until archived in App Store Connect, which is permanent; merge tags to make \
                    fewer packs
                    """
                ))
        }
        if quota.usedBytes > UploadOutcome.Quota.byteLimit / 10 * 9 {
            warnings.append(
                .warning(
                    .baQuota,
                    """
                    App Store Connect holds \(ByteCount.format(quota.usedBytes)) of the app's \
                    \(ByteCount.format(UploadOutcome.Quota.byteLimit)) for background assets (past 90%)
                    """
                ))
        }
        return warnings
    }

    /// The sum of App Store Connect's `usedBytes`, each taken as at least 0, stopping at `Int64.max` instead of
    /// wrapping to a negative total that would hide `ba-quota`.
    static func saturatingSum(_ values: [Int64]) -> Int64 {
        values.reduce(Int64(0)) { total, value in
            let (sum, overflow) = total.addingReportingOverflow(max(0, value))
            return overflow ? Int64.max : sum
        }
    }

    private func look(at archive: PackArchive, asset: BackgroundAssetResource?) throws -> UploadOutcome.Pack {
        let id = archive.assetPackId
        var pack = UploadOutcome.Pack(assetPackId: id, action: .wouldUpload, bytes: archive.size)
        if let entry = record.packs[id], entry.isCommitted(sha256: archive.sha256) {
            // What App Store Connect says of the id, as for any pack it has (docs/store.md#upload: `archived`).
            pack.archived = asset?.archived
            pack.action = .skipped
            pack.backgroundAssetId = entry.backgroundAssetId
            pack.versionId = entry.versionId
            pack.version = entry.version
            pack.state = entry.state
            pack.note = "already uploaded from this archive"
            return pack
        }
        guard let asset else {
            pack.note = "a new asset pack id in App Store Connect"
            return pack
        }
        pack.backgroundAssetId = asset.id
        pack.archived = asset.archived
        let latest = try api.latestVersion(of: asset.id, pack: id)
        pack.versionId = latest?.id
        pack.version = latest?.version
        pack.state = latest?.state
        let has = latest.map { "version \($0.version ?? "?") (\($0.state ?? "?"))" } ?? "the id with no version"
        if asset.archived {
            // What a real upload stops at (exit 2): a dry run reports it with the rest and ends with exit 1.
            pack.action = .wouldFail
            pack.note = "App Store Connect has \(has), archived: upload would stop here"
            return pack
        }
        pack.note =
            latest == nil
            ? "App Store Connect has the id with no version: its first version"
            : "App Store Connect has \(has): a new version"
        return pack
    }
}
