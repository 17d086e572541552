import ODRPackCore

/// What `upload` did or, in a dry run, would do (docs/store.md#upload): one entry per selected pack, the quota in a
/// dry run, and what makes the exit 1 (a version App Store Connect failed to process, or `--wait`'s limit reached).
package struct UploadOutcome: Sendable {
    package enum Action: String, Sendable {
        case uploaded, skipped
        case wouldUpload = "would-upload"
        /// Dry run: App Store Connect has the id archived, where a real upload stops (exit 2).
        case wouldFail = "would-fail"
    }

    package struct Pack: Sendable {
        package var assetPackId: String
        package var action: Action
        package var backgroundAssetId: String?
        package var versionId: String?
        package var version: String?
        package var state: VersionState?
        /// Dry run: whether the background asset App Store Connect has for the id is archived (nil: it has none).
        package var archived: Bool?
        package var bytes: Int64
        /// For the text line: why skipped, or what App Store Connect has now (dry run).
        package var note: String?
        /// `stateDetails.errors` of a FAILED version.
        package var stateErrors: [String] = []
        /// `--wait`: `asc-pack-mismatch` when App Store Connect derived another `locale` or `platforms`.
        package var diagnostics: [Diagnostic] = []
    }

    /// App Store Connect's limits for Apple-hosted packs: 100 asset pack ids and 200 GB per app, counted as
    /// docs/store.md#the-quota says: ids not archived, each counting its `usedBytes`.
    package struct Quota: Sendable, Equatable {
        package static let idLimit = 100
        package static let byteLimit: Int64 = 200_000_000_000
        /// Ids not archived now, which count against the limit.
        package var ids: Int
        /// Their `usedBytes`, summed saturating: never wrapped by a server's figures.
        package var bytes: Int64
        /// After this upload: the ids not archived and this upload's ids.
        package var idsAfter: Int
        /// After this upload: each untouched id's `usedBytes`, and for each id sent the larger of its `usedBytes` and
        /// the new archive's size; saturating.
        package var bytesAfter: Int64
        /// Ids App Store Connect has (not archived) that this build does not make.
        package var notInBuild: [String]

        /// Over 100 ids or 200 GB after the upload: `ba-quota-exceeded`, nothing sent.
        package var isExceeded: Bool { idsAfter > Self.idLimit || bytesAfter > Self.byteLimit }
    }

    package var app: String
    package var dryRun: Bool
    package var packs: [Pack] = []
    package var quota: Quota?
    package var diagnostics: [Diagnostic] = []
    /// Exit 1: each a sentence naming the pack.
    package var failures: [String] = []
}

/// What `upload` reports while it runs, from its worker threads: the front end prints and draws the progress bar.
package struct UploadEvents: Sendable {
    /// The packs of the run and the bytes to send in all (once, before the first part).
    package var started: @Sendable (_ packs: Int, _ totalBytes: Int64) -> Void = { _, _ in }
    /// Bytes of a part App Store Connect accepted.
    package var sent: @Sendable (_ bytes: Int64) -> Void = { _ in }
    /// A pack finished (uploaded, skipped, or examined in a dry run).
    package var finished: @Sendable (_ pack: UploadOutcome.Pack) -> Void = { _ in }
    /// A build holds the build folder: upload waits for it (once, before anything else).
    package var waiting: @Sendable () -> Void = {}

    package init() {}
}
