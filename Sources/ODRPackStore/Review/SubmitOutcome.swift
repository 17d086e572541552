import ODRPackCore

/// What `submit` did or, in a dry run, would do (docs/store.md#submit): the submissions holding this build's pack
/// versions, and what makes the exit 1 (`--wait`: a decision other than approval, or the time-out) or 2.
package struct SubmitOutcome: Sendable {
    package enum Action: String, Sendable {
        case submitted
        case alreadySubmitted = "already-submitted"
        case wouldSubmit = "would-submit"
    }

    package struct Item: Sendable {
        package var assetPackId: String
        package var versionId: String
        package var version: String?
        package var itemId: String?
        package var action: Action
        /// The item's state, once `--wait` has read it (`APPROVED`, `REJECTED`, …).
        package var state: String?
    }

    package struct Submission: Sendable {
        /// Nil in a dry run that would create it.
        package var id: String?
        /// App Store Connect's value: `IOS`, `MAC_OS`, `TV_OS`, `VISION_OS`.
        package var platform: String
        package var state: String?
        package var items: [Item]
    }

    package var app: String
    package var dryRun: Bool
    package var submissions: [Submission] = []
    package var diagnostics: [Diagnostic] = []
    /// Exit 1: each a sentence naming the pack or the submission.
    package var failures: [String] = []
    /// Exit 2 with the diagnostics (`ba-not-uploaded`), before any change.
    package var stopped = false
}
