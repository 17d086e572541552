import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// The app's quota as App Store Connect counts it (docs/store.md#the-quota), judged on every upload before anything
/// is sent: now, and after this upload.
enum UploadQuota {
    /// The quota now and after sending `sending` (asset pack id -> the new archive's size): ids = the ids not
    /// archived ∪ the ids sent; bytes = each untouched id's `usedBytes` + for each id sent, the larger of its
    /// `usedBytes` and the new archive's size. Every sum saturates.
    static func count(
        assets: [BackgroundAssetResource], sending: [String: Int64], build: BuildManifest
    ) -> UploadOutcome.Quota {
        let live = assets.filter { !$0.archived }
        var used: [String: Int64] = [:]
        for asset in live {
            used[asset.assetPackIdentifier] = max(used[asset.assetPackIdentifier] ?? 0, asset.usedBytes)
        }
        var after = used
        for (id, size) in sending { after[id] = max(used[id] ?? 0, size) }
        let built = Set(build.packs.map { $0.assetPackId ?? $0.id })
        return UploadOutcome.Quota(
            ids: used.count, bytes: live.map { max(0, $0.usedBytes) }.saturatingSum, idsAfter: after.count,
            bytesAfter: after.values.saturatingSum,
            notInBuild: used.keys.filter { !built.contains($0) }.sorted { $0.precedesByCodePoint($1) })
    }

    /// `ba-quota-exceeded` over a limit after the upload (nothing is then sent), else `ba-quota` at 80% or more of one.
    static func diagnostics(_ quota: UploadOutcome.Quota) -> [Diagnostic] {
        let idLimit = UploadOutcome.Quota.idLimit
        let byteLimit = UploadOutcome.Quota.byteLimit
        let figures =
            "\(quota.idsAfter) of \(idLimit) asset pack ids and \(ByteCount.format(quota.bytesAfter)) of "
            + "\(ByteCount.format(byteLimit))"
        let unused =
            quota.notInBuild.isEmpty
            ? "this build makes every id App Store Connect has: merge tags to make fewer or smaller packs"
            : "App Store Connect has ids this build no longer makes: \(quota.notInBuild.joined(separator: ", ")); "
                + "archive those you no longer need in App Store Connect (permanent: an archived id is gone for good), "
                + "or merge tags to make fewer or smaller packs"
        if quota.isExceeded {
            return [
                .error(
                    .baQuotaExceeded,
                    "after this upload App Store Connect would hold \(figures), over the app's limit: nothing was sent; "
                        + unused)
            ]
        }
        let idsNear = quota.idsAfter * 5 >= idLimit * 4
        let bytesNear = quota.bytesAfter >= byteLimit / 5 * 4
        guard idsNear || bytesNear else { return [] }
        return [
            .warning(
                .baQuota,
                "after this upload App Store Connect holds \(figures) (80% or more of a limit: Apple emails at 80%); "
                    + unused)
        ]
    }
}
