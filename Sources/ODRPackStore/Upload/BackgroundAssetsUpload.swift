import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackDiff
import ODRPackPlatform

/// `odrpack upload` (docs/store.md#upload): a Background Assets build's Apple-hosted packs sent to App Store
/// Connect, or with `dryRun` only looked up there.
package enum BackgroundAssetsUpload {
    /// Checks everything that needs no request (the API URL, the build, the selection, the key, libcurl, the
    /// archives), then finds the app and uploads (or looks up) each selected pack, `options.jobs` at a time, all under
    /// a shared lock on the build folder (a build waits; docs/store.md#trust-boundaries).
    /// - Throws: `ODRPackError.usage` (exit 64) or another `ODRPackError` (exit 2); exit 1 is `failures`.
    package static func run(_ options: UploadOptions, events: UploadEvents = UploadEvents()) throws -> UploadOutcome {
        try APIKey.checkPathsAreNotKeyText(options)
        try checkAppID(options)
        if options.apiURL?.isEmpty == true {
            throw ODRPackError.usage(
                "--api is empty (an unset variable?): give the API's base URL, or leave --api out for Apple's")
        }
        let base = try APIBaseURL(
            options.nonEmpty(options.apiURL) ?? options.nonEmpty(options.environment["ODRPACK_ASC_API"])
                ?? APIBaseURL.apple)
        guard options.jobs >= 1 else { throw ODRPackError.usage("--jobs must be at least 1") }
        if let wait = options.waitSeconds, wait < 0 { throw ODRPackError.usage("--wait SECONDS cannot be negative") }
        return try BuildFolderSession.reading(FilePath(options.buildPath), onWait: events.waiting) { session in
            // One upload of a build at a time: a second one refuses at once rather than send every pack again
            // (docs/store.md#upload). A dry run only reads, and runs beside one.
            let lock = options.dryRun ? nil : try uploadLock(session.folder.path)
            return try withExtendedLifetime(lock) { try run(options, session: session, base: base, events: events) }
        }
    }

    /// The exclusive lock an upload holds beside the build folder's shared one.
    static let uploadLockName = ".odrpack-upload.lock"

    private static func uploadLock(_ folder: FilePath) throws -> OutputLock {
        do {
            return try OutputLock(folder: folder, fileName: uploadLockName, wait: false, onWait: {})
        } catch ODRPackError.folderLocked {
            throw ODRPackError.folderLocked(.uploadRunning(folder))
        }
    }

    /// `--app`/`ASC_APP_ID` is the app's Apple ID, digits only: anything else (a key pasted into the wrong variable)
    /// is exit 64 and never echoed or sent in a request path.
    private static func checkAppID(_ options: UploadOptions) throws {
        guard let app = options.resolvedAppID else { return }
        guard app.utf8.count > 20 || !app.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return }
        throw ODRPackError.usage(
            """
            the app's Apple ID (--app or ASC_APP_ID) must be digits only, as App Store Connect shows it under App \
            Information > Apple ID (the value given is not shown: it may be a secret put there by mistake)
            """
        )
    }

    private static func run(
        _ options: UploadOptions, session: BuildFolderSession, base: APIBaseURL, events: UploadEvents
    ) throws -> UploadOutcome {
        let (manifest, folder) = (try session.manifest(), session.folder.path)
        try checkUploadable(manifest)
        let selected = try selection(options.selection, build: manifest, onWait: events.waiting)
        let key = try APIKey.resolve(options)
        let transport = try makeTransport(options)
        let archives = try selected.map { pack -> PackArchive in
            var made = try archive(pack, folder: folder)
            made.language = pack.language
            made.platforms = StorePlatform.of(pack, in: manifest).map(\.value)
            return made
        }
        let client = AppStoreConnectClient(
            base: base, token: APIToken(key: key), clock: options.clock, jobs: options.jobs,
            readOnly: options.dryRun, transport: transport, verbose: options.verbose)
        let api = BackgroundAssetsAPI(client: client)
        let app = try appID(options, bundleID: manifest.bundleId, api: api)
        var record = try UploadRecord.load(folder: folder)
        if record.app != app { record = UploadRecord(app: app) }
        let packager = packagerDiagnostics(manifest)
        if options.dryRun {
            var outcome = try DryRun(api: api, app: app, record: record, jobs: options.jobs, events: events).run(
                archives, build: manifest)
            outcome.diagnostics += packager
            return outcome
        }
        // The quota after this upload, before anything is sent (docs/store.md#the-quota).
        let assets = try api.backgroundAssets(app: app, pack: nil)
        let live = Set(assets.filter { !$0.archived }.map(\.assetPackIdentifier))
        let archived = Set(assets.filter(\.archived).map(\.assetPackIdentifier))
        var sending: [String: Int64] = [:]
        for archive in archives where record.packs[archive.assetPackId]?.isCommitted(sha256: archive.sha256) != true {
            // An id App Store Connect has archived stops its pack (exit 2): it adds nothing.
            if archived.contains(archive.assetPackId) && !live.contains(archive.assetPackId) { continue }
            sending[archive.assetPackId] = archive.size
        }
        let quota = UploadQuota.count(assets: assets, sending: sending, build: manifest)
        let before = UploadQuota.diagnostics(quota) + packager
        if quota.isExceeded || (options.warningsAsErrors && before.warningCount > 0) {
            var stopped = UploadOutcome(app: app, dryRun: false, packs: [])
            stopped.quota = quota
            stopped.diagnostics = before
            return stopped
        }
        let uploader = PackUploader(
            api: api, app: app, record: SharedUploadRecord(record, folder: folder), jobs: options.jobs,
            waitSeconds: options.waitSeconds, events: events)
        var outcome = uploader.outcome(of: try uploader.upload(archives, committed: record))
        outcome.quota = quota
        outcome.diagnostics = before + outcome.diagnostics
        return outcome
    }

    /// `ba-packager-unknown` when the build's packager recorded no version (`--ba-package`): App Store Connect
    /// validates the archives on import, and only Apple's ba-package is known to make archives it accepts
    /// (docs/store.md#upload).
    static func packagerDiagnostics(_ manifest: BuildManifest) -> [Diagnostic] {
        guard manifest.backgroundAssets?.packagerVersion == nil else { return [] }
        let command = manifest.backgroundAssets?.packagerCommand.map { " command \($0)" } ?? ""
        return [
            .warning(
                .baPackagerUnknown,
                """
                the build's packager\(command) recorded no version: App Store Connect validates the archives on \
                import, and only Apple's ba-package is known to make archives it accepts; build with ba-package on \
                PATH (or xcrun ba-package) instead of --ba-package to record which one made them
                """)
        ]
    }

    /// The tests' transport, else libcurl's, loaded only now, with every usage error said: the first thing that
    /// needs the network (docs/store.md#libcurl).
    static func makeTransport(_ options: UploadOptions) throws -> any HTTPTransport {
        if let given = options.transport { return given }
        try CurlLibrary.load(environment: options.environment)
        return CurlTransport(timeout: Int(UploadTiming(environment: options.environment).requestTimeout))
    }

    /// `--app`/`ASC_APP_ID`, else the app App Store Connect has with the build's bundle id (exit 2 when none).
    static func appID(_ options: UploadOptions, bundleID: String, api: BackgroundAssetsAPI) throws -> String {
        if let given = options.resolvedAppID { return given }
        guard let found = try api.appID(bundleID: bundleID) else {
            throw ODRPackError.upload(.noApp(bundleID: bundleID))
        }
        return found
    }

    /// Only Apple-hosted Background Assets builds go to App Store Connect.
    static func checkUploadable(_ manifest: BuildManifest) throws {
        guard !manifest.format.kind.packsTravelInApp else {
            throw ODRPackError.usage(
                "this is an On-Demand Resources build: On-Demand Resources travel inside the IPA: odrpack ipa")
        }
        if manifest.backgroundAssets?.hosting == .self {
            throw ODRPackError.usage(
                "this build is self-hosted (hosting: self): upload BackgroundAssets/site/ to your server")
        }
    }

    /// `--since OLD`: the packs `diff OLD BUILD_DIR` lists under `upload`, OLD read under its shared lock as `diff`
    /// reads it; `--all`: every pack.
    static func selection(
        _ selection: UploadOptions.Selection, build: BuildManifest, onWait: () -> Void = {}
    ) throws -> [BuildManifest.Pack] {
        switch selection {
        case .all:
            return build.packs
        case .since(let oldPath):
            let old = try BuildFolderSession.reading(FilePath(oldPath), keepingSources: false, onWait: onWait) {
                try $0.manifest()
            }
            try BuildDiff.checkComparable(old: old, new: build)
            let upload = Set(BuildDiff(old: old, new: build).upload ?? [])
            return build.packs.filter { upload.contains($0.assetPackId ?? $0.id) }
        }
    }

    /// The pack's archive, checked against the build manifest before any request: an id App Store Connect accepts,
    /// and the bytes the build wrote.
    static func archive(_ pack: BuildManifest.Pack, folder: FilePath) throws -> PackArchive {
        let id = pack.assetPackId ?? pack.id
        guard !id.isEmpty,
            id.unicodeScalars.allSatisfy({
                ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
            })
        else {
            throw ODRPackError.upload(.assetPackIDCharacters(id))
        }
        let path = folder.joined(pack.file)
        let file = try OpenArchive(path: path)
        if let expected = pack.archiveSha256,
            expected != file.sha256 || pack.archiveSize.map({ $0 != file.size }) == true
        {
            throw ODRPackError.upload(.archiveNotBuilt(path))
        }
        guard file.size > 0 else { throw ODRPackError.upload(.archiveEmpty(path)) }
        guard AppleArchiveSignature.matches(file.prefix) else {
            throw ODRPackError.upload(.notAppleArchive(pack: id, path: path))
        }
        return PackArchive(assetPackId: id, path: path.text, size: file.size, sha256: file.sha256, file: file)
    }
}
