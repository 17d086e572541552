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
        let base = try APIBaseURL(
            options.nonEmpty(options.apiURL) ?? options.nonEmpty(options.environment["ODRPACK_ASC_API"])
                ?? APIBaseURL.apple)
        guard options.jobs >= 1 else { throw ODRPackError.usage("--jobs must be at least 1") }
        if let wait = options.waitSeconds, wait < 0 { throw ODRPackError.usage("--wait SECONDS cannot be negative") }
        let lock = try OutputLock.shared(
            folder: try BuildManifest.location(of: options.buildPath).folder, fileName: BuildFolder.lockFileName,
            onWait: events.waiting)
        return try withExtendedLifetime(lock) {
            try run(options, base: base, events: events)
        }
    }

    private static func run(_ options: UploadOptions, base: APIBaseURL, events: UploadEvents) throws -> UploadOutcome {
        let (manifest, folder) = try BuildManifest.load(options.buildPath)
        try checkUploadable(manifest)
        let selected = try selection(options.selection, build: manifest)
        let key = try APIKey.resolve(options)
        let timing = UploadTiming(environment: options.environment)
        let transport: any HTTPTransport
        if let given = options.transport {
            transport = given
        } else {
            // Only now, with every usage error said: the first thing that needs the network (docs/store.md#libcurl).
            try CurlLibrary.load(environment: options.environment)
            transport = CurlTransport(timeout: Int(timing.requestTimeout))
        }
        let archives = try selected.map { try archive($0, folder: folder) }
        let client = AppStoreConnectClient(
            base: base, token: APIToken(key: key), timing: timing, jobs: options.jobs, readOnly: options.dryRun,
            transport: transport, verbose: options.verbose)
        let api = BackgroundAssetsAPI(client: client)
        let app: String
        if let given = options.resolvedAppID {
            app = given
        } else {
            guard let found = try api.appID(bundleID: manifest.bundleId) else {
                throw ODRPackError.unusableInput(
                    """
                    App Store Connect has no app with bundle id '\(manifest.bundleId)' that this API key can see: \
                    pass --app APPLE_ID (the app's Apple ID, App Information in App Store Connect)
                    """
                )
            }
            app = found
        }
        var record = try UploadRecord.load(folder: folder)
        if record.app != app { record = UploadRecord(app: app) }
        if options.dryRun {
            return try DryRun(api: api, app: app, record: record, jobs: options.jobs, events: events).run(
                archives, build: manifest)
        }
        let shared = SharedUploadRecord(record, folder: folder)
        let total = archives.filter { record.packs[$0.assetPackId]?.isCommitted(sha256: $0.sha256) != true }
            .reduce(Int64(0)) { $0 + $1.size }
        events.started(archives.count, total)
        let uploader = PackUploader(
            api: api, app: app, record: shared, jobs: options.jobs, waitSeconds: options.waitSeconds, events: events)
        let packs = try parallelMap(archives, jobs: options.jobs, ownThreads: true) { archive -> UploadOutcome.Pack in
            let pack = try uploader.upload(archive)
            events.finished(pack)
            return pack
        }
        var outcome = UploadOutcome(app: app, dryRun: false, packs: packs)
        for pack in packs where options.waitSeconds != nil {
            if pack.state == "FAILED" {
                let details = pack.stateErrors.isEmpty ? "" : ": " + pack.stateErrors.joined(separator: "; ")
                outcome.failures.append(
                    "pack '\(pack.assetPackId)': App Store Connect failed to process version \(pack.version ?? "?")\(details)"
                )
            } else if pack.state != "COMPLETE" {
                outcome.failures.append(
                    """
                    pack '\(pack.assetPackId)': still \(pack.state ?? "processing") after \(options.waitSeconds!) s: \
                    App Store Connect goes on processing it; run upload --wait again later to see the result
                    """
                )
            }
        }
        return outcome
    }

    /// Only Apple-hosted Background Assets builds go to App Store Connect.
    static func checkUploadable(_ manifest: BuildManifest) throws {
        guard manifest.format == .backgroundAssets else {
            throw ODRPackError.usage(
                "this is an On-Demand Resources build: On-Demand Resources travel inside the IPA: odrpack ipa")
        }
        if manifest.backgroundAssets?.hosting == .self {
            throw ODRPackError.usage(
                "this build is self-hosted (hosting: self): upload BackgroundAssets/site/ to your server")
        }
    }

    /// `--since OLD`: the packs `diff OLD BUILD_DIR` lists under `upload`; `--all`: every pack.
    static func selection(_ selection: UploadOptions.Selection, build: BuildManifest) throws -> [BuildManifest.Pack] {
        switch selection {
        case .all:
            return build.packs
        case .since(let oldPath):
            let old = try BuildManifest.load(oldPath).manifest
            try BuildDiff.checkComparable(old: old, new: build)
            let upload = Set(BuildDiff(old: old, new: build).upload ?? [])
            return build.packs.filter { upload.contains($0.assetPackId ?? $0.id) }
        }
    }

    /// The pack's archive, checked against the build manifest before any request: an id App Store Connect accepts,
    /// and the bytes the build wrote.
    static func archive(_ pack: BuildManifest.Pack, folder: String) throws -> PackArchive {
        let id = pack.assetPackId ?? pack.id
        guard !id.isEmpty,
            id.unicodeScalars.allSatisfy({
                ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
            })
        else {
            throw ODRPackError.unusableInput(
                """
                asset pack id '\(id)' holds characters other than A-Z a-z 0-9 -, which App Store Connect rejects: \
                build again with this odrpack, which makes ids of those characters only
                """
            )
        }
        let path = folder + "/" + pack.file
        let file = try OpenArchive(path: path)
        if let expected = pack.archiveSha256,
            expected != file.sha256 || pack.archiveSize.map({ $0 != file.size }) == true
        {
            throw ODRPackError.unusableInput(
                "'\(path)' is not the archive the build wrote (its size or SHA-256 differs): run odrpack verify, and build again"
            )
        }
        guard file.size > 0 else {
            throw ODRPackError.unusableInput(
                "'\(path)' is empty: App Store Connect takes no empty archive; build again")
        }
        guard AppleArchiveSignature.matches(file.prefix) else {
            throw ODRPackError.unusableInput("pack '\(id)': '\(path)' is \(AppleArchiveSignature.problem)")
        }
        return PackArchive(assetPackId: id, path: path, size: file.size, sha256: file.sha256, file: file)
    }
}
