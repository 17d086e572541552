import Foundation
import ODRPackFormats
import ODRPackPlatform

/// `thin` with a Background Assets build (SPEC 12): removes the packed files from the app (as for ODR), copies
/// `AssetPackTags.json` into its root and sets the `BA*` keys of its Info.plist, kept in its own format (XML or
/// binary). Everything is checked before anything changes; running it twice equals running it once.
struct BackgroundAssetsThinner {
    let thinner: AppThinner
    let manifest: BuildManifest
    let buildFolder: String

    /// The keys a self-hosted build sets, which an Apple-hosted one removes.
    static let selfHostingKeys = ["BAManifestURL", "BAInitialDownloadRestrictions", "BAMaxInstallSize", "BAEssentialMaxInstallSize"]

    func run(_ location: AppThinner.Location) throws -> AppThinner.Result {
        let options = thinner.options
        if options.embed {
            throw ODRPackError.usage("--embed applies to ODR builds only: Background Assets packs are downloaded by the system, never embedded; '\(options.buildPath)' is a Background Assets build")
        }
        guard let settings = manifest.backgroundAssets else {
            throw ODRPackError.unusableInput("'\(options.buildPath)' has no backgroundAssets settings: rebuild it with odrpack build")
        }
        let tagsPath = buildFolder + "/" + BackgroundAssetsLayout.folder + "/" + BackgroundAssetsLayout.tagsFile
        guard let tags = FileManager.default.contents(atPath: tagsPath) else {
            throw ODRPackError.unusableInput("'\(tagsPath)' cannot be read: is '\(options.buildPath)' a finished odrpack build?")
        }
        let infoPath = try Self.infoPlistPath(of: location.app)
        var (plist, format) = try Self.readPlist(infoPath)

        var result = AppThinner.Result()
        let (toRemove, diagnostics) = try thinner.packedFiles(of: manifest, in: location)
        result.diagnostics = diagnostics
        let appGroup = options.appGroup ?? settings.appGroup ?? (plist["BAAppGroupID"] as? String)
        if appGroup == nil {
            result.diagnostics.append(.error(.baAppGroupMissing,
                "the app has no App Group id for Background Assets: set 'app-group' in the manifest's background-assets section, pass --app-group group.<your.bundle.id>, or add BAAppGroupID to the app's Info.plist (the app and its downloader extension must share the group)",
                subject: "BAAppGroupID"))
        }
        if !Self.hasDownloaderExtension(location.app) {
            result.diagnostics.append(.warning(.baExtensionMissing,
                "the app has no Background Assets downloader extension (an .appex in Extensions/ or PlugIns/ whose extension point is com.apple.background-asset-downloader-extension): the app stops at launch when it first uses AssetPackManager; add the extension target to the app",
                subject: (location.app as NSString).lastPathComponent))
        }
        if result.diagnostics.hasErrors { return result }

        let keys = try infoPlistValues(settings: settings, appGroup: appGroup!)
        let original = plist
        for (key, value) in keys { plist[key] = value }
        if settings.hosting == .apple { for key in Self.selfHostingKeys { plist.removeValue(forKey: key) } }
        // Written only when a value changed, so a second run leaves the file's bytes as they are.
        let changed = PropertyListValue(foundation: original).map { $0 != PropertyListValue(foundation: plist) } ?? true
        let newInfo = try Self.serialize(plist, format: format)

        // Change the app.
        try thinner.remove(toRemove, in: location, into: &result)
        let tagsTarget = location.app + "/" + BackgroundAssetsLayout.tagsFile
        if FileManager.default.contents(atPath: tagsTarget) != tags {
            try AtomicFile.write(tags, to: tagsTarget, replacingLinks: true)
        }
        result.installed = [BackgroundAssetsLayout.tagsFile]
        if changed { try AtomicFile.write(newInfo, to: infoPath, replacingLinks: true) }
        result.infoPlistKeys = keys.map(\.0).sorted()
        return result
    }

    /// The `BA*` keys for the build's hosting (SPEC 12): allowances count the archives' bytes (what downloads), install
    /// sizes the resources' bytes (what unpacks); the non-essential ones count the prefetch packs, which download
    /// right after installation.
    func infoPlistValues(settings: BuildManifest.BackgroundAssets, appGroup: String) throws -> [(String, Any)] {
        var values: [(String, Any)] = [
            ("BAHasManagedAssetPacks", NSNumber(value: true)),
            ("BAAppGroupID", appGroup),
            ("BAUsesAppleHosting", NSNumber(value: settings.hosting == .apple)),
        ]
        guard settings.hosting == .self else { return values }
        guard let urlPrefix = settings.urlPrefix, let host = URL(string: urlPrefix)?.host, !host.isEmpty else {
            throw ODRPackError.unusableInput("the build is self-hosted but its urlPrefix '\(settings.urlPrefix ?? "")' names no host: rebuild it with --url-prefix https://host/path")
        }
        let essential = manifest.packs.filter { $0.category == .initialInstall }
        let prefetch = manifest.packs.filter { $0.category == .prefetch }
        func archives(_ packs: [BuildManifest.Pack]) -> Int64 { packs.lazy.map { $0.archiveSize ?? 0 }.saturatingSum }
        func resources(_ packs: [BuildManifest.Pack]) -> Int64 { packs.lazy.map(\.size).saturatingSum }
        values += [
            ("BAManifestURL", BackgroundAssetsDocuments.manifestURL(urlPrefix)),
            ("BAInitialDownloadRestrictions", [
                "BADownloadDomainAllowList": [host],
                "BADownloadAllowance": NSNumber(value: archives(prefetch)),
                "BAEssentialDownloadAllowance": NSNumber(value: archives(essential)),
            ] as [String: Any]),
            ("BAMaxInstallSize", NSNumber(value: resources(prefetch))),
            ("BAEssentialMaxInstallSize", NSNumber(value: resources(essential))),
        ]
        return values
    }

    /// The plist in its format: XML through Foundation (which sorts keys), binary through odrpack's own writer, which
    /// sorts keys too (Foundation's binary writer follows its hash order, so bytes would differ run to run).
    static func serialize(_ plist: [String: Any], format: PropertyListSerialization.PropertyListFormat) throws -> Data {
        if format == .binary, let value = PropertyListValue(foundation: plist) { return value.binaryData() }
        do {
            return try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0)
        } catch {
            throw ODRPackError.fileOperation("the app's Info.plist cannot be written back: \(error.localizedDescription)")
        }
    }

    /// `APP/Info.plist` (iOS, tvOS, visionOS), else `APP/Contents/Info.plist` (macOS).
    static func infoPlistPath(of app: String) throws -> String {
        for path in [app + "/Info.plist", app + "/Contents/Info.plist"] where FileManager.default.fileExists(atPath: path) {
            return path
        }
        throw ODRPackError.unusableInput("'\(app)' has no Info.plist: pass a built app bundle (MyGame.app)")
    }

    static func readPlist(_ path: String) throws -> ([String: Any], PropertyListSerialization.PropertyListFormat) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ODRPackError.fileOperation("cannot read '\(path)'")
        }
        var format = PropertyListSerialization.PropertyListFormat.xml
        guard let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: &format),
              let dictionary = plist as? [String: Any] else {
            throw ODRPackError.unusableInput("'\(path)' is not a property list dictionary: is the app bundle complete?")
        }
        // Old-style (OpenStep) plists cannot be written back: XML keeps every value.
        return (dictionary, format == .openStep ? .xml : format)
    }

    /// Whether an `.appex` in `Extensions/` or `PlugIns/` (or macOS's `Contents/…`) names an extension point that
    /// contains `background-asset` (NSExtension or ExtensionKit's EXAppExtensionAttributes).
    static func hasDownloaderExtension(_ app: String) -> Bool {
        for folder in ["Extensions", "PlugIns", "Contents/Extensions", "Contents/PlugIns"] {
            let path = app + "/" + folder
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where name.hasSuffix(".appex") {
                let appex = path + "/" + name
                guard let info = try? infoPlistPath(of: appex), let (plist, _) = try? readPlist(info) else { continue }
                let points = [(plist["NSExtension"] as? [String: Any])?["NSExtensionPointIdentifier"],
                              (plist["EXAppExtensionAttributes"] as? [String: Any])?["EXExtensionPointIdentifier"]]
                if points.contains(where: { ($0 as? String)?.contains("background-asset") == true }) { return true }
            }
        }
        return false
    }
}
