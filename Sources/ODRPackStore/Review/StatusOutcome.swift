import ODRPackCore

/// Where each pack of a build stands in App Store Connect (docs/store.md#status), and what makes the exit 1.
package struct StatusOutcome: Sendable {
    package struct Pack: Sendable {
        package var assetPackId: String
        /// The version the upload record names, else the latest; nil when App Store Connect has none.
        package var version: String?
        package var versionId: String?
        package var state: VersionState?
        /// The internal beta release's state and the App Store release's, nil when there is none.
        package var internalBeta: String?
        package var appStore: String?
        package var locale: String?
        package var platforms: [String]?
        /// The record's SHA-256 is the build manifest's: this build's archive (false without a record).
        package var current: Bool

        /// A version App Store Connect failed to process, or App Review rejected.
        var hasFailed: Bool { state == .failed || appStore == "REJECTED" }
    }

    package var app: String
    package var packs: [Pack] = []
    package var diagnostics: [Diagnostic] = []
    /// Exit 1 besides a pack not current or failed: `--until`'s time-out or a failure on the way.
    package var failures: [String] = []

    /// Exit 0: every pack's version current, none `FAILED` or `REJECTED`, no error, no failure.
    package var passed: Bool {
        failures.isEmpty && !diagnostics.hasErrors && packs.allSatisfy { $0.current && !$0.hasFailed }
    }
}
