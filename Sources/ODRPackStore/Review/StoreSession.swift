import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// What `submit` and `status` share with `upload` (docs/store.md#submit): the build and its upload record, the API
/// key, the client (the same middleware: retries, token, trust boundaries, `--verbose`) and the app.
struct StoreSession {
    let manifest: BuildManifest
    let folder: FilePath
    var record: UploadRecord
    let key: APIKey

    /// `--api`/`ODRPACK_ASC_API`, else Apple's: checked before the build folder is even opened.
    static func base(_ options: UploadOptions) throws -> APIBaseURL {
        try APIKey.checkPathsAreNotKeyText(options)
        return try APIBaseURL(
            options.nonEmpty(options.apiURL) ?? options.nonEmpty(options.environment["ODRPACK_ASC_API"])
                ?? APIBaseURL.apple)
    }

    /// The build (an Apple-hosted Background Assets build, its manifest the one `build` read under its lock), its upload
    /// record and the API key: everything that needs no request.
    static func load(_ options: UploadOptions, build: BuildFolderSession) throws -> StoreSession {
        let (manifest, folder) = (try build.manifest(), build.folder.path)
        try BackgroundAssetsUpload.checkUploadable(manifest)
        let record = try UploadRecord.load(folder: folder)
        let key = try APIKey.resolve(options)
        return StoreSession(manifest: manifest, folder: folder, record: record, key: key)
    }

    /// The client (GET requests only when `readOnly`) and the app: `--app`/`ASC_APP_ID`, else found by bundle id.
    func connect(_ options: UploadOptions, base: APIBaseURL, readOnly: Bool) throws -> (
        api: BackgroundAssetsAPI, review: ReviewAPI, app: String
    ) {
        let transport = try BackgroundAssetsUpload.makeTransport(options)
        let client = AppStoreConnectClient(
            base: base, token: APIToken(key: key), clock: options.clock, jobs: 1, readOnly: readOnly,
            transport: transport, verbose: options.verbose)
        let api = BackgroundAssetsAPI(client: client)
        let app = try BackgroundAssetsUpload.appID(options, bundleID: manifest.bundleId, api: api)
        return (api, ReviewAPI(client: client), app)
    }

    /// The entry the record has for `pack` when it names an uploaded version of this build's archive, of `app`.
    func uploaded(_ pack: BuildManifest.Pack, app: String?) -> UploadRecord.Entry? {
        guard let entry = record.packs[pack.assetPackId ?? pack.id], app == nil || record.app == app,
            entry.versionId != nil, entry.state != nil, entry.state != .awaitingUpload,
            pack.archiveSha256 == nil || pack.archiveSha256 == entry.archiveSha256
        else { return nil }
        return entry
    }

    /// Polls `look` (at once, then every 5 s doubling to 60, docs/store.md#submit) until it says done, or until
    /// `seconds` have passed: false at the time-out.
    static func poll(clock: any UploadClock, seconds: Int, _ look: () throws -> Bool) throws -> Bool {
        let start = clock.now
        var polls = 0
        while true {
            if try look() { return true }
            let elapsed = clock.now.timeIntervalSince(start)
            if elapsed >= Double(seconds) { return false }
            polls += 1
            let pause = min(UploadTiming.pollInterval(polls).timeInterval, Double(seconds) - elapsed)
            clock.sleep(for: .seconds(pause))
        }
    }
}
