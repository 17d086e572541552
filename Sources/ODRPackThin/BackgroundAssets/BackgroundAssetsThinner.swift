import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// `thin` with a Background Assets build (docs/background-assets.md): removes the packed files from the app (as for ODR), copies
/// `AssetPackTags.json` into its root and sets the `BA*` keys of its Info.plist, kept in its own format (XML or
/// binary). Everything is checked before anything changes; running it twice equals running it once.
struct BackgroundAssetsThinner {
    let thinner: AppThinner
    let manifest: BuildManifest
    let buildFolder: FilePath

    /// The keys a self-hosted build sets, which an Apple-hosted one removes.
    static let selfHostingKeys = [
        "BAManifestURL", "BAInitialDownloadRestrictions", "BAMaxInstallSize", "BAEssentialMaxInstallSize",
    ]

    /// What thinning the app means (the checks' findings in the result) and the change that does it, which the caller
    /// commits.
    func plan(_ location: AppThinner.Location, info infoPath: FilePath) throws -> (AppThinner.Result, AppTransaction) {
        let options = thinner.options
        if options.embed {
            throw ODRPackError.usage(
                """
                --embed applies to ODR builds only: Background Assets packs are downloaded by the system, never \
                embedded; '\(options.buildPath)' is a Background Assets build
                """
            )
        }
        guard let settings = manifest.backgroundAssets else {
            throw ODRPackError.thin(.noBackgroundAssetsSettings(build: options.buildFolder))
        }
        let layoutFolder = buildFolder.joined(BackgroundAssetsLayout.folder)
        let tagsPath = layoutFolder.joined(BackgroundAssetsLayout.tagsFile)
        guard FileManager.default.isReadableFile(atPath: tagsPath.string) else {
            throw ODRPackError.thin(
                .buildFileUnreadable(
                    folder: layoutFolder, name: BackgroundAssetsLayout.tagsFile, build: options.buildFolder))
        }
        let (original, format) = try AppThinner.readPlist(infoPath)
        var plist = original
        // The app gets its own platform's packs, and the tags document of those without the `platforms` key
        // (docs/background-assets.md#platforms).
        let platform = try AppPlatform.backgroundAssetsPlatform(
            info: original, app: options.appPath.text,
            macOSLayout: infoPath == location.app.joined("Contents/Info.plist"),
            buildPlatforms: ApplePlatform.ordered(settings.platforms))
        let manifest = BackgroundAssetsDocuments.manifest(self.manifest, for: platform)
        let tags = Data(BackgroundAssetsDocuments.assetPackTags(manifest, includingPlatforms: false).utf8)

        var result = AppThinner.Result()
        var change = AppTransaction(app: location.app)
        let found = try thinner.packedFiles(of: manifest, in: location)
        result.diagnostics = found.diagnostics
        let tagsName = Self.tagsLocation(app: location.app, infoPath: infoPath)
        if !found.diagnostics.hasErrors {
            result.diagnostics += thinner.notInAppWarnings(
                manifest, found, in: location, installed: (tagsName, tagsPath), installedBytes: tags)
        }
        let appGroup = appGroup(settings: settings, info: plist, into: &result)
        if let problem = Self.downloaderExtensionProblem(location.app) { result.diagnostics.append(problem) }
        if result.diagnostics.hasErrors { return (result, change) }

        let keys = try infoPlistValues(settings: settings, appGroup: appGroup!, manifest: manifest)
        for (key, value) in keys { plist[key] = value }
        if settings.hosting == .apple { for key in Self.selfHostingKeys { plist.removeValue(forKey: key) } }
        // Written only when a value changed, so a second run leaves the file's bytes as they are.
        let newInfo = plist == original ? nil : Self.serialize(plist, format: format)

        // The change: the packed files out, the tags document and the Info.plist in.
        thinner.remove(found, of: manifest, in: location, into: &result, change: &change)
        try install(tags, at: location.app.joined(tagsName), change: &change)
        result.installed = [tagsName]
        if let newInfo { change.writes.append((infoPath, newInfo)) }
        result.infoPlistKeys = keys.map(\.0).sorted()
        // A second thin of the same app with the same build: nothing to remove, the tags document and every key
        // already there (docs/commands.md#thin), as for ODR.
        result.unchanged =
            found.toRemove.isEmpty && change.writes.isEmpty && change.createdFolders.isEmpty
            && change.removals.isEmpty
        return (result, change)
    }

    /// The App Group id for `BAAppGroupID`: `--app-group`, else the manifest's `app-group`, else the one the app's
    /// Info.plist already has; without one, `ba-app-group-missing` in `result`.
    private func appGroup(
        settings: BuildManifest.BackgroundAssets, info plist: [String: PropertyListValue],
        into result: inout AppThinner.Result
    ) -> String? {
        var appGroup = thinner.options.appGroup ?? settings.appGroup
        if appGroup == nil, case .string(let existing)? = plist["BAAppGroupID"] { appGroup = existing }
        if appGroup == nil {
            result.diagnostics.append(
                .error(
                    .baAppGroupMissing,
                    """
                    the app has no App Group id for Background Assets: set 'app-group' in the manifest's \
                    background-assets section, pass --app-group group.<your.bundle.id>, or add BAAppGroupID to the \
                    app's Info.plist (the app and its downloader extension must share the group)
                    """,
                    subject: "BAAppGroupID"))
        }
        return appGroup
    }

    /// Writes the tags document at `target` where the app's differs, making its folder (not in a dry run) when
    /// missing.
    private func install(_ tags: Data, at target: FilePath, change: inout AppTransaction) throws {
        guard
            AppThinner.contents(of: target, limit: tags.count) != tags
                || SystemCall.status(target, followingLinks: false)?.kind != .regular
        else { return }
        let folder = target.removingLastComponent()
        if !thinner.options.dryRun, SystemCall.status(folder, followingLinks: false) == nil {
            try OutputFolder.makeFolder(folder)
            change.createdFolders.append(folder)
            // 0755 whatever the umask (docs/commands.md#thin).
            if let failure = SystemCall.setPermissions(folder, 0o755) {
                throw ODRPackError.io(.setMode, path: folder, failure)
            }
        }
        change.writes.append((target, tags))
    }

    /// Where `AssetPackTags.json` goes: the app's root, or for a macOS app (`Contents/Info.plist`) its
    /// `Contents/Resources/`, since anything beside `Contents/` breaks code signing (docs/background-assets.md).
    static func tagsLocation(app: FilePath, infoPath: FilePath) -> String {
        infoPath == app.joined("Contents/Info.plist")
            ? "Contents/Resources/" + BackgroundAssetsLayout.tagsFile : BackgroundAssetsLayout.tagsFile
    }

    /// The `BA*` keys for the build's hosting (docs/background-assets.md): allowances count the archives' bytes (what downloads), install
    /// sizes the resources' bytes (what unpacks); the non-essential ones count the prefetch packs, which download
    /// right after installation. `manifest` holds the packs for the app's platform.
    func infoPlistValues(settings: BuildManifest.BackgroundAssets, appGroup: String, manifest: BuildManifest) throws
        -> [(String, PropertyListValue)]
    {
        var values: [(String, PropertyListValue)] = [
            ("BAHasManagedAssetPacks", .bool(true)),
            ("BAAppGroupID", .string(appGroup)),
            ("BAUsesAppleHosting", .bool(settings.hosting == .apple)),
        ]
        guard settings.hosting == .self else { return values }
        guard let urlPrefix = settings.urlPrefix, let host = URL(string: urlPrefix)?.host, !host.isEmpty else {
            throw ODRPackError.thin(.urlPrefixWithoutHost(settings.urlPrefix))
        }
        let essential = manifest.packs.filter { $0.category == .initialInstall }
        let prefetch = manifest.packs.filter { $0.category == .prefetch }
        // What devices download: each pack's downloadSize as the build's download manifest lists it (a pack live at its
        // address keeps the size of its published bytes), else the archive's.
        let listed =
            (try? PublishedDownloadManifest.load(
                buildFolder.joined(BackgroundAssetsLayout.folder).joined(BackgroundAssetsLayout.siteFolder)
                    .joined(BackgroundAssetsLayout.downloadManifestFile)))?.packs ?? [:]
        func archives(_ packs: [BuildManifest.Pack]) -> Int64 {
            packs.lazy.map { listed[$0.assetPackId ?? $0.id]?.downloadSize ?? $0.archiveSize ?? 0 }.saturatingSum
        }
        func resources(_ packs: [BuildManifest.Pack]) -> Int64 { packs.lazy.map(\.size).saturatingSum }
        values += [
            ("BAManifestURL", .string(BackgroundAssetsDocuments.manifestURL(urlPrefix))),
            (
                "BAInitialDownloadRestrictions",
                .dictionary([
                    "BADownloadDomainAllowList": .array([.string(host)]),
                    "BADownloadAllowance": .int(archives(prefetch)),
                    "BAEssentialDownloadAllowance": .int(archives(essential)),
                ])
            ),
            ("BAMaxInstallSize", .int(resources(prefetch))),
            ("BAEssentialMaxInstallSize", .int(resources(essential))),
        ]
        return values
    }

    /// The plist in its format, through odrpack's own writers (keys sorted, every value of its own kind): Foundation's
    /// binary writer follows its hash order, and on Linux its bridge writes a Swift `true` as the integer 1.
    static func serialize(_ plist: [String: PropertyListValue], format: PropertyListSerialization.PropertyListFormat)
        -> Data
    {
        format == .binary ? PropertyListValue.dictionary(plist).binaryData() : XMLPropertyList.data(.dictionary(plist))
    }

    /// The downloader extension's identifier (docs/background-assets.md): exactly this, nothing that merely mentions background assets.
    static let downloaderExtensionPoint = "com.apple.background-asset-downloader-extension"

    /// Nil when an `.appex` in `Extensions/` (macOS: `Contents/Extensions/`) has the downloader extension point;
    /// else `ba-extension-misplaced` for one only in `PlugIns/`, or `ba-extension-missing` naming any extension whose
    /// identifier mentions background assets but is not the one the system registers.
    static func downloaderExtensionProblem(_ app: FilePath) -> Diagnostic? {
        let macOS = SystemCall.exists(app.joined("Contents/Info.plist"))
        let prefix = macOS ? "Contents/" : ""
        var lookalikes: [String] = []
        func matching(in folder: String) -> String? {
            let path = app.joined(prefix + folder)
            let names = ((try? FolderNames.list(path)) ?? []).compactMap(\.text).sorted()
            for name in names where name.hasSuffix(".appex") {
                let appex = path.joined(name)
                guard let info = try? AppThinner.infoPlistPath(of: appex),
                    let (plist, _) = try? AppThinner.readPlist(info)
                else { continue }
                var points: [String] = []
                for (container, key) in [
                    ("EXAppExtensionAttributes", "EXExtensionPointIdentifier"),
                    ("NSExtension", "NSExtensionPointIdentifier"),
                ] {
                    if case .dictionary(let attributes)? = plist[container], case .string(let point)? = attributes[key]
                    {
                        points.append(point)
                    }
                }
                if points.contains(downloaderExtensionPoint) { return (prefix + folder).slashJoined(name) }
                for point in points
                where point.lowercased().contains("background-asset") || point.lowercased().contains("backgroundasset")
                {
                    lookalikes.append("'\((prefix + folder).slashJoined(name))' (\(point))")
                }
            }
            return nil
        }
        if matching(in: "Extensions") != nil { return nil }
        if let misplaced = matching(in: "PlugIns") {
            return .error(
                .baExtensionMisplaced,
                """
                the Background Assets downloader extension '\(misplaced)' is in PlugIns/, which App Store Connect \
                rejects (ITMS-91179): embed it in \(prefix)Extensions/ (Xcode: Embed ExtensionKit Extensions)
                """,
                subject: misplaced)
        }
        let seen =
            lookalikes.isEmpty
            ? ""
            : "; \(lookalikes.joined(separator: ", ")) has another extension point, which the system never registers as the downloader"
        return .warning(
            .baExtensionMissing,
            """
            the app has no Background Assets downloader extension (an .appex in \(prefix)Extensions/ whose extension \
            point is \(downloaderExtensionPoint))\(seen): the app stops when it first uses AssetPackManager; add the \
            downloader extension target to the app
            """,
            subject: app.name)
    }
}
