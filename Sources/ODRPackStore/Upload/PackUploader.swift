import Foundation
import ODRPackCore
import ODRPackPlatform

/// One pack of a build, as `upload` sends it: its asset pack id and the archive's path, size and SHA-256.
struct PackArchive: Sendable {
    var assetPackId: String
    var path: String
    var size: Int64
    var sha256: String
    /// The open file `sha256` was hashed from, which every part is read from.
    var file: OpenArchive
    /// The pack's language (nil: none) and platforms (App Store Connect's values, in order), which `--wait` compares
    /// with what App Store Connect derived (docs/store.md#upload).
    var language: String? = nil
    var platforms: [String] = []
}

/// Steps 1 to 6 of docs/store.md#upload ("Per pack"), each pack's steps in order and each step's result written to the
/// upload record before the next starts, so that a run after a failure or a kill goes on where this one stopped.
struct PackUploader: Sendable {
    let api: BackgroundAssetsAPI
    let app: String
    let record: SharedUploadRecord
    let jobs: Int
    let waitSeconds: Int?
    let events: UploadEvents

    /// At most this many reservations for one pack: each expired one gets a new one, but not forever.
    static let maximumReservations = 4

    /// Every pack, `jobs` at a time, after saying how many bytes are to be sent (those of packs not committed from
    /// the same archive); each pack reported as it finishes.
    func upload(_ archives: [PackArchive], committed record: UploadRecord) throws -> [UploadOutcome.Pack] {
        let total = archives.filter { record.packs[$0.assetPackId]?.isCommitted(sha256: $0.sha256) != true }
            .reduce(Int64(0)) { $0 + $1.size }
        events.started(archives.count, total)
        return try parallelMap(archives, jobs: jobs, ownThreads: true) { archive -> UploadOutcome.Pack in
            let pack = try upload(archive)
            events.finished(pack)
            return pack
        }
    }

    /// The run's outcome: with `--wait`, a version App Store Connect failed to process, or one still processing at
    /// the limit, is exit 1 (docs/store.md#upload, step 6).
    func outcome(of packs: [UploadOutcome.Pack]) -> UploadOutcome {
        var outcome = UploadOutcome(app: app, dryRun: false, packs: packs)
        outcome.diagnostics = packs.flatMap(\.diagnostics)
        guard let waitSeconds else { return outcome }
        for pack in packs {
            if pack.state == .failed {
                let details = pack.stateErrors.isEmpty ? "" : ": " + pack.stateErrors.joined(separator: "; ")
                outcome.failures.append(
                    "pack '\(pack.assetPackId)': App Store Connect failed to process version \(pack.version ?? "?")\(details)"
                )
            } else if pack.state != .complete {
                outcome.failures.append(
                    """
                    pack '\(pack.assetPackId)': still \(pack.state?.rawValue ?? "processing") after \(waitSeconds) s: \
                    App Store Connect goes on processing it; run upload --wait again later to see the result
                    """
                )
            }
        }
        return outcome
    }

    /// One pack, steps 1 to 6, going on from where the record says a stopped run left it.
    func upload(_ pack: PackArchive) throws -> UploadOutcome.Pack {
        let id = pack.assetPackId
        let fresh = UploadRecord.Entry(archiveSha256: pack.sha256, archiveSize: pack.size)
        var previous = record.entry(id)
        if let entry = previous, entry.isCommitted(sha256: pack.sha256) { return try skipped(pack, entry: entry) }
        if previous?.archiveSha256 != pack.sha256 {
            // Another archive (or none yet): what the record says of an earlier one does not apply.
            previous = nil
            try record.update(id, { $0 = fresh }, creating: fresh)
        }

        // 1. The background asset: found by its id, or created.
        let assetID = try backgroundAsset(id)
        try record.update(id, { $0.backgroundAssetId = assetID }, creating: fresh)

        // 2. The version: the one a stopped run left awaiting its upload, or a new one.
        let versionID: String
        var stoppedReservation: String?
        switch try stoppedVersion(previous, pack: id, fresh: fresh) {
        case .committed:
            return try skipped(pack, entry: record.entry(id) ?? fresh)
        case .awaitingUpload(let version, let reservation):
            versionID = version
            stoppedReservation = reservation
        case .none:
            versionID = try newVersion(of: assetID, pack: id, fresh: fresh)
        }

        // 3 and 4. The reservation and its parts; an expired URL gets a new reservation.
        let reservation = try sendArchive(
            pack, version: versionID, stoppedReservation: stoppedReservation, fresh: fresh)

        // 5. The commit: uploaded, no checksums.
        try api.commitUpload(reservation, pack: id)
        try record.update(id, { $0.state = .processing }, creating: fresh)

        // 6. With --wait, until App Store Connect has processed it.
        return try waitForProcessing(pack, entry: record.entry(id) ?? fresh)
    }

    /// A pack App Store Connect has from this archive: nothing is sent, but with `--wait` its processing is still
    /// worth waiting for.
    private func skipped(_ pack: PackArchive, entry: UploadRecord.Entry) throws -> UploadOutcome.Pack {
        var skipped = try waitForProcessing(pack, entry: entry)
        skipped.action = .skipped
        skipped.note = "already uploaded from this archive"
        return skipped
    }

    /// Where step 2 goes on for a pack a stopped run left.
    private enum StoppedVersion {
        /// Nothing to go on from: a new version.
        case none
        /// The version still awaits its upload, with the reservation the record has (if any).
        case awaitingUpload(versionID: String, reservationID: String?)
        /// The stopped run's commit was accepted before the record could say so.
        case committed
    }

    /// Step 2 for a pack the record shows `AWAITING_UPLOAD`: what App Store Connect says of that version now.
    private func stoppedVersion(
        _ previous: UploadRecord.Entry?, pack id: String, fresh: UploadRecord.Entry
    ) throws -> StoppedVersion {
        guard let entry = previous, entry.state == .awaitingUpload, let versionID = entry.versionId else {
            return .none
        }
        let seen = try api.version(versionID, pack: id)
        switch seen.state {
        case .awaitingUpload:
            return .awaitingUpload(versionID: seen.id, reservationID: entry.uploadFileId)
        case .processing, .complete:
            try record.update(id, { $0.state = seen.state }, creating: fresh)
            return .committed
        default:
            return .none
        }
    }

    /// Step 2: `POST /v1/backgroundAssetVersions`, recorded before the reservation.
    private func newVersion(of assetID: String, pack id: String, fresh: UploadRecord.Entry) throws -> String {
        let created = try api.createVersion(of: assetID, pack: id)
        try record.update(
            id,
            {
                $0.versionId = created.id
                $0.version = created.version
                $0.state = .awaitingUpload
                $0.uploadFileId = nil
                // What App Store Connect derived of, and App Review did with, an earlier version is not this one's.
                $0.locale = nil
                $0.platforms = nil
                $0.reviewSubmissionId = nil
                $0.reviewSubmissionItemId = nil
                $0.reviewSubmissionState = nil
            }, creating: fresh)
        return created.id
    }

    /// Steps 3 and 4: the stopped run's reservation while it is usable, else a new one, and its parts; a URL that
    /// expired first gets a new reservation, `maximumReservations` at most. Returns the reservation whose every part
    /// App Store Connect took.
    private func sendArchive(
        _ pack: PackArchive, version: String, stoppedReservation: String?, fresh: UploadRecord.Entry
    ) throws -> String {
        var current = try stoppedReservation.flatMap { try usableReservation($0, of: pack) }
        var reservations = 0
        while true {
            let reservation: UploadFileResource
            if let current {
                reservation = current
            } else {
                reservations += 1
                guard reservations <= Self.maximumReservations else {
                    throw ODRPackError.upload(
                        .uploadURLsExpired(pack: pack.assetPackId, times: Self.maximumReservations))
                }
                reservation = try reserve(pack, version: version, fresh: fresh)
            }
            if try sendParts(of: pack, reservation) { return reservation.id }
            current = nil
        }
    }

    /// A stopped run's reservation, when it still awaits the upload, covers this archive and no URL has expired.
    private func usableReservation(_ id: String, of pack: PackArchive) throws -> UploadFileResource? {
        let seen = try api.uploadFile(id, pack: pack.assetPackId)
        let now = api.client.clock.now
        guard seen.deliveryState == nil || seen.deliveryState == "AWAITING_UPLOAD", seen.coversExactly(pack.size),
            !seen.operations.contains(where: { $0.hasExpired(now: now) })
        else { return nil }
        return seen
    }

    /// Step 3: `POST /v1/backgroundAssetUploadFiles`, whose operations must cover the archive once; recorded before
    /// the first part.
    private func reserve(_ pack: PackArchive, version: String, fresh: UploadRecord.Entry) throws -> UploadFileResource {
        let id = pack.assetPackId
        let made = try api.reserveUpload(version: version, fileName: id + ".aar", size: pack.size, pack: id)
        guard made.coversExactly(pack.size) else {
            throw ODRPackError.upload(.operationsUncovered(pack: id, bytes: pack.size))
        }
        try record.update(id, { $0.uploadFileId = made.id }, creating: fresh)
        return made
    }

    /// Step 1: `GET /v1/apps/{app}/backgroundAssets` by id, else `POST /v1/backgroundAssets`; an archived one is
    /// gone for good (exit 2).
    private func backgroundAsset(_ id: String) throws -> String {
        let found = try api.backgroundAssets(app: app, identifier: id, pack: id).filter {
            $0.assetPackIdentifier == id
        }
        if let asset = found.first(where: { !$0.archived }) { return asset.id }
        if !found.isEmpty {
            throw ODRPackError.upload(.assetPackIDArchived(id))
        }
        return try api.createBackgroundAsset(app: app, identifier: id).id
    }

    /// Step 4: every operation's bytes, `jobs` at a time; false when a URL expired before all were sent.
    private func sendParts(of pack: PackArchive, _ reservation: UploadFileResource) throws -> Bool {
        let client = api.client
        let events = self.events
        let outcomes = try parallelMap(reservation.operations, jobs: jobs, ownThreads: true) { operation -> Bool in
            if operation.hasExpired(now: client.clock.now) { return false }
            switch try client.sendPart(operation, descriptor: pack.file.descriptor, pack: pack.assetPackId) {
            case .sent:
                events.sent(operation.length)
                return true
            case .expired:
                return false
            }
        }
        return outcomes.allSatisfy { $0 }
    }

    /// Step 6, with `--wait`; without it the pack is done at the commit (`PROCESSING`).
    private func waitForProcessing(_ pack: PackArchive, entry: UploadRecord.Entry) throws -> UploadOutcome.Pack {
        guard let waitSeconds, let versionID = entry.versionId else { return result(pack, .uploaded, entry) }
        let clock = api.client.clock
        let limit = Double(waitSeconds)
        let start = clock.now
        var polls = 0
        var entry = entry
        var seen: BackgroundAssetVersionResource?
        while entry.state != .complete && entry.state != .failed {
            let elapsed = clock.now.timeIntervalSince(start)
            if elapsed >= limit && polls > 0 { break }
            polls += 1
            let pause = min(UploadTiming.pollInterval(polls).timeInterval, max(0, limit - elapsed))
            if pause > 0 { clock.sleep(for: .seconds(pause)) }
            let version = try api.version(versionID, pack: pack.assetPackId)
            seen = version
            if let state = version.state {
                try record.update(
                    pack.assetPackId,
                    {
                        $0.state = state
                        $0.version = version.version ?? $0.version
                    }, creating: entry)
                entry.state = state
                entry.version = version.version ?? entry.version
            }
        }
        var outcome = result(pack, .uploaded, entry)
        outcome.stateErrors = seen?.errors ?? []
        if entry.state == .complete {
            outcome.diagnostics = try readBack(pack, versionID: versionID, seen: seen, entry: entry)
        }
        return outcome
    }

    /// docs/store.md#upload (`--wait`): a `COMPLETE` version's `locale` and `platforms` as App Store Connect derived
    /// them, read (once more only when this run has not seen the version yet), recorded, and compared with the pack's.
    private func readBack(
        _ pack: PackArchive, versionID: String, seen: BackgroundAssetVersionResource?, entry: UploadRecord.Entry
    ) throws -> [Diagnostic] {
        let version = try seen ?? api.version(versionID, pack: pack.assetPackId)
        let derived = version.platforms ?? []
        try record.update(
            pack.assetPackId,
            {
                $0.locale = version.locale
                $0.platforms = derived
            }, creating: entry)
        let mismatch = PackReadBack.mismatch(
            pack: pack.assetPackId, language: pack.language, platforms: pack.platforms, locale: version.locale,
            derived: derived)
        return mismatch.map { [$0] } ?? []
    }

    private func result(
        _ pack: PackArchive, _ action: UploadOutcome.Action, _ entry: UploadRecord.Entry, note: String? = nil
    ) -> UploadOutcome.Pack {
        UploadOutcome.Pack(
            assetPackId: pack.assetPackId, action: action, backgroundAssetId: entry.backgroundAssetId,
            versionId: entry.versionId, version: entry.version, state: entry.state, bytes: pack.size, note: note)
    }
}
