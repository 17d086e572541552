import Foundation

/// What `odrpack submit` and `odrpack status` were asked to do (docs/store.md#submit, docs/store.md#status). The
/// connection (credentials, `--app`, `--api`, `--verbose`, the environment, the tests' transport and clock) is
/// `upload`'s own `UploadOptions`, so the three commands resolve it by the same rules.
package struct StoreOptions: Sendable {
    /// `status --until`: what every pack must reach.
    package enum Until: String, Sendable, CaseIterable {
        case complete, testable, approved
    }

    package var connection: UploadOptions
    /// `submit --platform`: one platform (manifest spelling or App Store Connect's value), nil for every one.
    package var platform: String?
    package var dryRun = false
    /// `submit --wait [SECONDS]`: nil without it.
    package var waitSeconds: Int?
    /// `status --until`, and `--timeout` (default 1800).
    package var until: Until?
    package var timeoutSeconds = UploadOptions.defaultWaitSeconds

    package init(buildPath: String, environment: [String: String]) {
        connection = UploadOptions(buildPath: buildPath, selection: .all, environment: environment)
    }
}
