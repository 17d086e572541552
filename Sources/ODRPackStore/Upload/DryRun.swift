import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// `upload --dry-run` (docs/store.md#upload): GET requests only. For each selected pack, what App Store Connect has
/// and what `upload` would do (an archived id, where a real upload stops with exit 2, is a `ba-id-archived` error and exit 1,
/// after the rest); then the app's quota after the upload (docs/store.md#the-quota) and the ids App Store Connect has
/// that this build no longer makes.
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
        let sending = Dictionary(
            packs.filter { $0.action == .wouldUpload }.map { ($0.assetPackId, $0.bytes) }, uniquingKeysWith: max)
        let quota = UploadQuota.count(assets: assets, sending: sending, build: build)
        outcome.quota = quota
        outcome.diagnostics += UploadQuota.diagnostics(quota)
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
        let has =
            latest.map { "version \($0.version ?? "?") (\($0.state?.rawValue ?? "?"))" } ?? "the id with no version"
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
