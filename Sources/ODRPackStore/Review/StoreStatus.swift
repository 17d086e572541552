import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// `odrpack status` (docs/store.md#status): GET requests only. For each pack of the build, its version (the one the
/// upload record names, else the latest), state, releases, `locale` and `platforms` (checked as `upload --wait` checks
/// them) and whether it is this build's archive; with `--until`, polled until every pack reaches the state.
package enum StoreStatus {
    package static func run(_ options: StoreOptions, events: UploadEvents = UploadEvents()) throws -> StatusOutcome {
        let base = try StoreSession.base(options.connection)
        guard options.timeoutSeconds >= 0 else { throw ODRPackError.usage("--timeout SECONDS cannot be negative") }
        return try BuildFolderSession.reading(FilePath(options.connection.buildPath), onWait: events.waiting) { build in
            let session = try StoreSession.load(options.connection, build: build)
            let (api, review, app) = try session.connect(options.connection, base: base, readOnly: true)
            guard let until = options.until else { return try look(session, app: app, api: api, review: review) }
            var outcome = StatusOutcome(app: app)
            var failed: [StatusOutcome.Pack] = []
            let reached = try StoreSession.poll(clock: options.connection.clock, seconds: options.timeoutSeconds) {
                outcome = try look(session, app: app, api: api, review: review)
                failed = outcome.packs.filter(\.hasFailed)
                return !failed.isEmpty || outcome.packs.allSatisfy { reaches($0, until) }
            }
            if !failed.isEmpty {
                outcome.failures += failed.map { pack in
                    "pack '\(pack.assetPackId)': version \(pack.version ?? "?") is "
                        + (pack.state == .failed
                            ? "FAILED: App Store Connect could not process it; upload a new archive"
                            : "REJECTED by App Review: see the Resolution Center, upload a fixed version and submit it")
                }
            } else if !reached {
                let waiting = outcome.packs.filter { !reaches($0, until) }.map(\.assetPackId)
                outcome.failures.append(
                    """
                    not every pack is \(until.rawValue) after \(options.timeoutSeconds) s: \
                    \(waiting.joined(separator: ", ")); run status --until \(until.rawValue) again later
                    """
                )
            }
            return outcome
        }
    }

    /// Whether a pack's version has reached `until`.
    static func reaches(_ pack: StatusOutcome.Pack, _ until: StoreOptions.Until) -> Bool {
        switch until {
        case .complete: return pack.state == .complete
        case .testable: return pack.internalBeta == "READY_FOR_TESTING"
        case .approved:
            return ["ACCEPTED", "PROCESSING_FOR_DISTRIBUTION", "READY_FOR_DISTRIBUTION"].contains(pack.appStore ?? "")
        }
    }

    /// Every pack once.
    private static func look(
        _ session: StoreSession, app: String, api: BackgroundAssetsAPI, review: ReviewAPI
    ) throws -> StatusOutcome {
        var outcome = StatusOutcome(app: app)
        let record = session.record.app == app ? session.record : UploadRecord(app: app)
        for pack in session.manifest.packs {
            let id = pack.assetPackId ?? pack.id
            let entry = record.packs[id]
            var standing: VersionStanding?
            if let versionID = entry?.versionId {
                standing = try review.versionWithReleases(versionID, pack: id)
            } else {
                let assets = try api.backgroundAssets(app: app, identifier: id, pack: id).filter {
                    $0.assetPackIdentifier == id
                }
                if let asset = assets.first(where: { !$0.archived }) ?? assets.first {
                    standing = try review.latestVersionWithReleases(of: asset.id, pack: id)
                }
            }
            let version = standing?.version
            outcome.packs.append(
                StatusOutcome.Pack(
                    assetPackId: id, version: version?.version, versionId: version?.id, state: version?.state,
                    internalBeta: standing?.internalBeta, appStore: standing?.appStore, locale: version?.locale,
                    platforms: version?.platforms,
                    current: entry != nil && pack.archiveSha256 != nil && entry?.archiveSha256 == pack.archiveSha256))
            if let version, version.state == .complete,
                let mismatch = PackReadBack.mismatch(
                    pack: id, language: pack.language,
                    platforms: StorePlatform.of(pack, in: session.manifest).map(\.value), locale: version.locale,
                    derived: version.platforms ?? [])
            {
                outcome.diagnostics.append(mismatch)
            }
        }
        return outcome
    }
}
