import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// `odrpack submit` (docs/store.md#submit): the pack versions the upload record shows uploaded, into one review
/// submission per platform (an open one reused), then submitted; each step recorded before the next, so a second run
/// after a kill sends nothing twice. Holds the shared lock on the build folder, as `upload`.
package enum ReviewSubmit {
    /// - Throws: `ODRPackError.usage` (exit 64) or another `ODRPackError` (exit 2); exit 1 is `failures`, exit 2
    ///   without a change is `stopped` (`ba-not-uploaded`).
    package static func run(_ options: StoreOptions, events: UploadEvents = UploadEvents()) throws -> SubmitOutcome {
        let base = try StoreSession.base(options.connection)
        if let wait = options.waitSeconds, wait < 0 { throw ODRPackError.usage("--wait SECONDS cannot be negative") }
        return try BuildFolderSession.reading(FilePath(options.connection.buildPath), onWait: events.waiting) {
            try run(options, build: $0, base: base)
        }
    }

    /// A pack of this run: its id, its version as the record names it, and the platforms it is for.
    private struct Candidate {
        var id: String
        var entry: UploadRecord.Entry
        var platforms: [StorePlatform]
        var versionID: String { entry.versionId ?? "" }
    }

    private static func run(_ options: StoreOptions, build: BuildFolderSession, base: APIBaseURL) throws
        -> SubmitOutcome
    {
        let connection = options.connection
        var session = try StoreSession.load(connection, build: build)
        let manifest = session.manifest
        let platforms = try submissionPlatforms(options.platform, manifest: manifest)
        let packs = manifest.packs.filter { !Set(StorePlatform.of($0, in: manifest)).isDisjoint(with: platforms) }

        // ba-not-uploaded: before any request, so before any change.
        let given = connection.resolvedAppID
        var outcome = SubmitOutcome(app: given ?? session.record.app ?? "", dryRun: options.dryRun)
        outcome.diagnostics = notUploaded(packs, session: session, app: given)
        if !outcome.diagnostics.isEmpty {
            outcome.stopped = true
            return outcome
        }
        let (api, review, app) = try session.connect(connection, base: base, readOnly: options.dryRun)
        outcome.app = app
        outcome.diagnostics = notUploaded(packs, session: session, app: app)
        if !outcome.diagnostics.isEmpty {
            outcome.stopped = true
            return outcome
        }
        var candidates = packs.map { pack -> Candidate in
            let id = pack.assetPackId ?? pack.id
            return Candidate(
                id: id, entry: session.record.packs[id]!, platforms: StorePlatform.of(pack, in: manifest))
        }

        // Every version must be COMPLETE now (read fresh), else nothing is submitted (exit 2).
        var unfinished: [UploadFailure.UnfinishedVersion] = []
        for index in candidates.indices {
            let seen = try api.version(candidates[index].versionID, pack: candidates[index].id)
            candidates[index].entry.version = seen.version ?? candidates[index].entry.version
            if seen.state != .complete {
                unfinished.append(.init(pack: candidates[index].id, version: seen.version, state: seen.state?.rawValue))
            }
        }
        if !unfinished.isEmpty {
            throw ODRPackError.upload(.notComplete(unfinished))
        }

        // Each pack into the submission of the first of its platforms this run takes.
        var taken = Set<String>()
        for platform in platforms {
            let mine = candidates.filter { !taken.contains($0.id) && $0.platforms.contains(platform) }
            guard !mine.isEmpty else { continue }
            taken.formUnion(mine.map(\.id))
            for submission in try submit(
                mine, platform: platform.value, app: app, review: review, session: &session, dryRun: options.dryRun)
            {
                // One entry per submission, whichever platform's packs found it.
                if let id = submission.id, let index = outcome.submissions.firstIndex(where: { $0.id == id }) {
                    outcome.submissions[index].items += submission.items
                } else {
                    outcome.submissions.append(submission)
                }
            }
        }

        if let waitSeconds = options.waitSeconds, !options.dryRun {
            try wait(&outcome, seconds: waitSeconds, review: review, clock: connection.clock, session: &session)
        }
        return outcome
    }

    /// `--platform P` (exit 64 when the build does not list it), else every platform of the build, in order.
    private static func submissionPlatforms(_ given: String?, manifest: BuildManifest) throws -> [StorePlatform] {
        let all = Array(Set((manifest.backgroundAssets?.platforms ?? []).compactMap(StorePlatform.named))).sorted()
        guard let given else { return all }
        guard let platform = StorePlatform.named(given), all.contains(platform) else {
            throw ODRPackError.usage(
                "--platform '\(given)' is not a platform of this build: give one of \(all.map(\.name).joined(separator: ", "))"
            )
        }
        return [platform]
    }

    /// `ba-not-uploaded` for each pack the record shows no uploaded version of (of this archive, for `app`).
    private static func notUploaded(_ packs: [BuildManifest.Pack], session: StoreSession, app: String?) -> [Diagnostic]
    {
        packs.filter { session.uploaded($0, app: app) == nil }.map { pack in
            let id = pack.assetPackId ?? pack.id
            return .error(
                .baNotUploaded,
                """
                pack '\(id)': the upload record (\(UploadRecord.fileName)) shows no uploaded version of this build's \
                archive\(app.map { " for app \($0)" } ?? ""): run odrpack upload BUILD_DIR --all (or --since OLD) first, \
                then submit
                """,
                subject: id)
        }
    }

    /// One platform's packs: the versions no unfinished submission holds go into the open submission (or a new one),
    /// which is then submitted. Returns the submissions holding the packs.
    private static func submit(
        _ packs: [Candidate], platform: String, app: String, review: ReviewAPI, session: inout StoreSession,
        dryRun: Bool
    ) throws -> [SubmitOutcome.Submission] {
        let open = try review.submissions(app: app, platform: platform, states: ["READY_FOR_REVIEW"]).first
        let unfinished = try review.submissions(app: app, platform: platform, states: ReviewAPI.unfinishedStates)
        var states: [String: String] = [:]
        var platforms: [String: String] = [:]
        for submission in unfinished + [open].compactMap({ $0 }) {
            states[submission.id] = submission.state
            platforms[submission.id] = submission.platform
        }
        // What the app's unfinished submissions for the platform hold: version id -> (submission, item).
        var holding: [String: (submission: String, item: ReviewSubmissionItemResource)] = [:]
        for submission in unfinished {
            for item in try review.items(of: submission.id) {
                if let version = item.versionID { holding[version] = (submission.id, item) }
            }
        }
        var groups: [String?: [SubmitOutcome.Item]] = [:]
        var order: [String?] = []
        func add(_ item: SubmitOutcome.Item, to submission: String?) {
            if groups[submission] == nil { order.append(submission) }
            groups[submission, default: []].append(item)
        }
        var toSubmit: [Candidate] = []
        for pack in packs {
            let entry = pack.entry
            if let submission = entry.reviewSubmissionId, let item = entry.reviewSubmissionItemId {
                add(
                    SubmitOutcome.Item(
                        assetPackId: pack.id, versionId: pack.versionID, version: entry.version, itemId: item,
                        action: .alreadySubmitted), to: submission)
                if states[submission] == nil {
                    // A submission this platform's lists do not hold (finished, or another platform's): read fresh.
                    let seen = try review.submission(submission)
                    states[submission] = seen.state ?? entry.reviewSubmissionState
                    platforms[submission] = seen.platform
                }
            } else if let held = holding[pack.versionID] {
                add(
                    SubmitOutcome.Item(
                        assetPackId: pack.id, versionId: pack.versionID, version: entry.version, itemId: held.item.id,
                        action: .alreadySubmitted), to: held.submission)
                if !dryRun {
                    try record(
                        pack.id, submission: held.submission, item: held.item.id, state: states[held.submission],
                        session: &session)
                }
            } else {
                toSubmit.append(pack)
            }
        }

        var target = open?.id
        if !toSubmit.isEmpty {
            if dryRun {
                for pack in toSubmit {
                    add(
                        SubmitOutcome.Item(
                            assetPackId: pack.id, versionId: pack.versionID, version: pack.entry.version, itemId: nil,
                            action: .wouldSubmit), to: target)
                }
            } else {
                if target == nil {
                    let made = try review.createSubmission(app: app, platform: platform)
                    target = made.id
                    states[made.id] = made.state ?? "READY_FOR_REVIEW"
                }
                let submission = target!
                for pack in toSubmit {
                    let item = try review.addItem(submission: submission, version: pack.versionID, pack: pack.id)
                    try record(
                        pack.id, submission: submission, item: item.id, state: states[submission], session: &session)
                    add(
                        SubmitOutcome.Item(
                            assetPackId: pack.id, versionId: pack.versionID, version: pack.entry.version,
                            itemId: item.id, action: .submitted), to: submission)
                }
            }
        }

        // The open submission is submitted when it holds this build's versions (added now, or by a run that stopped
        // before submitting it).
        if !dryRun, let submission = target, states[submission] == "READY_FOR_REVIEW", groups[submission] != nil {
            let answered = try review.submit(submission)
            states[submission] = answered.state ?? "WAITING_FOR_REVIEW"
            for item in groups[submission] ?? [] {
                try record(
                    item.assetPackId, submission: submission, item: item.itemId, state: states[submission],
                    session: &session)
            }
        }
        return order.map { id in
            SubmitOutcome.Submission(
                id: id, platform: id.flatMap { platforms[$0] } ?? platform, state: id.flatMap { states[$0] },
                items: groups[id] ?? [])
        }
    }

    /// The record gains the pack's submission, item and the submission's state, written before the next step.
    private static func record(
        _ pack: String, submission: String, item: String?, state: String?, session: inout StoreSession
    ) throws {
        guard var entry = session.record.packs[pack] else { return }
        entry.reviewSubmissionId = submission
        entry.reviewSubmissionItemId = item ?? entry.reviewSubmissionItemId
        entry.reviewSubmissionState = state ?? entry.reviewSubmissionState
        session.record.packs[pack] = entry
        try session.record.write(folder: session.folder)
    }

    /// `--wait`: each submission polled until `COMPLETE` or `UNRESOLVED_ISSUES` (`CANCELING` and `COMPLETING` keep it
    /// waiting), then its items' states read; anything but every item `APPROVED` or `ACCEPTED`, or the time-out, is a
    /// failure (exit 1).
    private static func wait(
        _ outcome: inout SubmitOutcome, seconds: Int, review: ReviewAPI, clock: any UploadClock,
        session: inout StoreSession
    ) throws {
        let start = clock.now
        for index in outcome.submissions.indices {
            guard let id = outcome.submissions[index].id else { continue }
            let left = max(0, seconds - Int(clock.now.timeIntervalSince(start)))
            var state = outcome.submissions[index].state
            let decided = try StoreSession.poll(clock: clock, seconds: left) {
                state = try review.submission(id).state
                return state == "COMPLETE" || state == "UNRESOLVED_ISSUES"
            }
            outcome.submissions[index].state = state
            let platform = outcome.submissions[index].platform
            guard decided else {
                outcome.failures.append(
                    """
                    review submission \(id) (\(platform)) is still \(state ?? "in review") after \(seconds) s: App \
                    Review goes on; run odrpack status BUILD_DIR --until approved to follow it
                    """
                )
                continue
            }
            let items = try review.items(of: id)
            for item in outcome.submissions[index].items.indices {
                let mine = outcome.submissions[index].items[item]
                let seen = items.first { $0.id == mine.itemId || $0.versionID == mine.versionId }
                outcome.submissions[index].items[item].state = seen?.state
                try record(mine.assetPackId, submission: id, item: mine.itemId, state: state, session: &session)
            }
            let refused = outcome.submissions[index].items.filter { $0.state != "APPROVED" && $0.state != "ACCEPTED" }
            if state != "COMPLETE" || !refused.isEmpty {
                let states = outcome.submissions[index].items.map { "\($0.assetPackId) \($0.state ?? "in no state")" }
                outcome.failures.append(
                    """
                    review submission \(id) (\(platform)) is \(state ?? "?"): \(states.joined(separator: ", ")); see \
                    App Store Connect's Resolution Center for App Review's reasons, upload a fixed version, and submit it
                    """
                )
            }
        }
    }
}
