import Foundation

/// What `odrpack upload` was asked to do (docs/store.md#upload), as the front end parsed it; flags and
/// environment are merged here, not there, so the rules have one home.
package struct UploadOptions: Sendable {
    /// Which packs go up: the ones `diff OLD BUILD_DIR` lists under `upload`, or every pack.
    package enum Selection: Sendable, Equatable {
        case since(String)
        case all
    }

    package var buildPath: String
    package var selection: Selection
    package var appID: String?
    package var keyID: String?
    package var issuerID: String?
    package var privateKeyPath: String?
    package var dryRun = false
    /// `--warnings-as-errors`: a warning found before anything is sent (`ba-quota`, `ba-packager-unknown`) stops the
    /// upload there, as an error does (docs/commands.md#scripts).
    package var warningsAsErrors = false
    /// `--wait [SECONDS]`: nil without `--wait`.
    package var waitSeconds: Int?
    package var jobs = 4
    package var apiURL: String?
    /// `--verbose`: given each request as sent and answered (docs/store.md#output).
    package var verbose: (@Sendable (String) -> Void)?
    /// The tests' in-process transport instead of libcurl; nil in the product.
    var transport: (any HTTPTransport)?
    /// What every wait and expiry reads (UploadClock): the system's in the product, one that only moves its time in
    /// the tests, so back-off, `Retry-After` and `--wait` run in-process without passing.
    var clock: any UploadClock = SystemUploadClock()
    /// The process environment (`ASC_*`, `ODRPACK_ASC_API`, `HOME`), passed in so tests and the front end agree.
    package var environment: [String: String]

    package static let defaultWaitSeconds = 1800

    package init(buildPath: String, selection: Selection, environment: [String: String]) {
        self.buildPath = buildPath
        self.selection = selection
        self.environment = environment
    }

    /// `--app`, else `ASC_APP_ID`.
    var resolvedAppID: String? { nonEmpty(appID) ?? nonEmpty(environment["ASC_APP_ID"]) }

    func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
