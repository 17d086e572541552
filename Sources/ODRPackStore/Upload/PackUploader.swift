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
}

/// Steps 1 to 6 of docs/store.md#upload ("Per pack") for one pack, each step's result written to the upload record
/// before the next starts.
struct PackUploader: Sendable {
    let api: BackgroundAssetsAPI
    let app: String
    let record: SharedUploadRecord
    let jobs: Int
    let waitSeconds: Int?
    let events: UploadEvents

    /// At most this many reservations for one pack: each expired one gets a new one, but not forever.
    static let maximumReservations = 4

    func upload(_ pack: PackArchive) throws -> UploadOutcome.Pack {
        let id = pack.assetPackId
        let fresh = UploadRecord.Entry(archiveSha256: pack.sha256, archiveSize: pack.size)
        var previous = record.entry(id)
        if let entry = previous, entry.isCommitted(sha256: pack.sha256) {
            // Sent before; with --wait, its processing is still worth waiting for.
            var skipped = try waitForProcessing(pack, entry: entry)
            skipped.action = .skipped
            skipped.note = "already uploaded from this archive"
            return skipped
        }
        if previous?.archiveSha256 != pack.sha256 {
            // Another archive (or none yet): what the record says of an earlier one does not apply.
            previous = nil
            try record.update(id, { $0 = fresh }, creating: fresh)
        }

        // 1. The background asset: found by its id, or created.
        let assetID = try backgroundAsset(id)
        try record.update(id, { $0.backgroundAssetId = assetID }, creating: fresh)

        // 2. The version: the one a stopped run left awaiting its upload, or a new one.
        var version: BackgroundAssetVersionResource?
        var reservationID: String?
        if let entry = previous, entry.state == "AWAITING_UPLOAD", let versionID = entry.versionId {
            let seen = try api.version(versionID, pack: id)
            switch seen.state {
            case "AWAITING_UPLOAD":
                version = seen
                reservationID = entry.uploadFileId
            case "PROCESSING", "COMPLETE":
                // The stopped run's commit was accepted before the record could say so.
                try record.update(id, { $0.state = seen.state }, creating: fresh)
                var finished = try waitForProcessing(pack, entry: record.entry(id) ?? fresh)
                finished.action = .skipped
                finished.note = "already uploaded from this archive"
                return finished
            default:
                break
            }
        }
        if version == nil {
            let created = try api.createVersion(of: assetID, pack: id)
            version = created
            try record.update(
                id,
                {
                    $0.versionId = created.id
                    $0.version = created.version
                    $0.state = "AWAITING_UPLOAD"
                    $0.uploadFileId = nil
                }, creating: fresh)
        }
        let versionID = version!.id

        // 3 and 4. The reservation and its parts; an expired URL gets a new reservation.
        var reservation: UploadFileResource?
        if let reservationID {
            let seen = try api.uploadFile(reservationID, pack: id)
            if seen.deliveryState == nil || seen.deliveryState == "AWAITING_UPLOAD", seen.coversExactly(pack.size),
                !seen.operations.contains(where: { $0.hasExpired() })
            {
                reservation = seen
            }
        }
        var reservations = 0
        while true {
            if reservation == nil {
                reservations += 1
                guard reservations <= Self.maximumReservations else {
                    throw ODRPackError.unusableInput(
                        """
                        pack '\(id)': App Store Connect's upload URLs expired \(Self.maximumReservations) times before \
                        the parts were sent: check this machine's clock, and run upload again
                        """
                    )
                }
                let made = try api.reserveUpload(
                    version: versionID, fileName: id + ".aar", size: pack.size, pack: id)
                guard made.coversExactly(pack.size) else {
                    throw ODRPackError.unusableInput(
                        "pack '\(id)': App Store Connect's upload operations do not cover the archive's \(pack.size) bytes once"
                    )
                }
                try record.update(id, { $0.uploadFileId = made.id }, creating: fresh)
                reservation = made
            }
            if try sendParts(of: pack, reservation!) { break }
            reservation = nil
        }

        // 5. The commit: uploaded, no checksums.
        try api.commitUpload(reservation!.id, pack: id)
        try record.update(id, { $0.state = "PROCESSING" }, creating: fresh)

        // 6. With --wait, until App Store Connect has processed it.
        return try waitForProcessing(pack, entry: record.entry(id) ?? fresh)
    }

    /// Step 1: `GET /v1/apps/{app}/backgroundAssets` by id, else `POST /v1/backgroundAssets`; an archived one is
    /// gone for good (exit 2).
    private func backgroundAsset(_ id: String) throws -> String {
        let found = try api.backgroundAssets(app: app, identifier: id, pack: id).filter {
            $0.assetPackIdentifier == id
        }
        if let asset = found.first(where: { !$0.archived }) { return asset.id }
        if !found.isEmpty {
            throw ODRPackError.unusableInput(
                """
                pack '\(id)': App Store Connect has this asset pack id archived, and archiving is permanent: rename one \
                of the pack's tags to get a new id, then build and upload again
                """
            )
        }
        return try api.createBackgroundAsset(app: app, identifier: id).id
    }

    /// Step 4: every operation's bytes, `jobs` at a time; false when a URL expired before all were sent.
    private func sendParts(of pack: PackArchive, _ reservation: UploadFileResource) throws -> Bool {
        let client = api.client
        let events = self.events
        let outcomes = try parallelMap(reservation.operations, jobs: jobs, ownThreads: true) { operation -> Bool in
            if operation.hasExpired() { return false }
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
        let timing = api.client.timing
        let limit = Double(waitSeconds) * timing.scale
        let start = Date()
        var polls = 0
        var entry = entry
        var seen: BackgroundAssetVersionResource?
        while entry.state != "COMPLETE" && entry.state != "FAILED" {
            let elapsed = Date().timeIntervalSince(start)
            if elapsed >= limit && polls > 0 { break }
            polls += 1
            let pause = min(timing.pollInterval(polls) * timing.scale, max(0, limit - elapsed))
            if pause > 0 { timing.sleeper(pause) }
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
        return outcome
    }

    private func result(
        _ pack: PackArchive, _ action: UploadOutcome.Action, _ entry: UploadRecord.Entry, note: String? = nil
    ) -> UploadOutcome.Pack {
        UploadOutcome.Pack(
            assetPackId: pack.assetPackId, action: action, backgroundAssetId: entry.backgroundAssetId,
            versionId: entry.versionId, version: entry.version, state: entry.state, bytes: pack.size, note: note)
    }
}
