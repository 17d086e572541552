import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// `odrpack thin APP BUILD_DIR` (docs/commands.md#thin): wires a built app to a build's packs. It locates the app,
/// checks its copies of packed files and removes them (what both formats share), and hands the rest to the build's
/// format. Everything is checked before anything changes; running it twice gives the same app as running it once.
package struct AppThinner {
    package struct Options: Sendable {
        /// The app as the command line named it, bytes and all (docs/architecture.md#paths).
        package let appPath: FilePath
        /// The build folder as the command line named it, bytes and all (docs/architecture.md#paths).
        package let buildFolder: FilePath
        /// `buildFolder` for messages.
        package var buildPath: String { buildFolder.text }
        package var embed = false
        /// A folder inside the app that the packs' paths are relative to (engines keep their data in one).
        package var resourcesPath: String?
        /// Background Assets builds: the App Group id for `BAAppGroupID`, over the manifest's `app-group`.
        package var appGroup: String?
        /// Work out and report what would change, and change nothing.
        package var dryRun = false
        /// `--warnings-as-errors`: a warning leaves the app unchanged, as an error does.
        package var warningsAsErrors = false
        /// Warn `app-signature-stale` when a signed app changes; `ipa`, which signs or warns itself, turns it off.
        package var signatureWarning = true

        package init(appPath: FilePath, buildPath: FilePath) {
            self.appPath = appPath
            self.buildFolder = buildPath
        }

        /// A build folder named by text (a test's folder).
        package init(appPath: FilePath, buildPath: String) {
            self.init(appPath: appPath, buildPath: FilePath(buildPath))
        }
    }

    package struct Result: Sendable {
        /// Files removed, relative to the app, sorted: indices into the manifest's files, each path made when read.
        package var removed = RemovedFiles()
        package var removedBytes: Int64 = 0
        /// Pack file names embedded under `OnDemandResources/`.
        package var embedded: [String] = []
        /// Plists written into the app's root.
        package var installed: [String] = []
        /// Background Assets builds: the Info.plist keys thin set, sorted.
        package var infoPlistKeys: [String] = []
        /// Errors (`app-file-differs`, `app-bundle-id-mismatch`…), when there are any nothing was changed, and
        /// warnings.
        package var diagnostics: [Diagnostic] = []
        /// The app's `CFBundleIdentifier`.
        package var bundleId: String?
        /// With `dryRun`: what the lists above name was not done, only found.
        package var dryRun = false
        /// The app was thinned with this build already: nothing to remove, and every file to install is there with the
        /// same bytes (docs/commands.md#thin).
        package var unchanged = false
    }

    package let options: Options
    /// `--embed`: counts the packs copied into the app and the bytes of their files.
    package var progress = ProgressBar.silent()

    package init(options: Options) { self.options = options }

    /// Runs under a shared lock on the build folder (docs/commands.md#thin: thins run together, never during a build of it; a
    /// read-only build folder is read without one).
    /// - Parameter onWait: called once when a build holds the folder and this starts waiting for it.
    /// - Throws: `ODRPackError` when the tool cannot do its job (exit 2).
    package func run(onWait: () -> Void) throws -> Result {
        _ = try Self.checkInputs(app: options.appPath, build: options.buildFolder)
        return try BuildFolderSession.reading(options.buildFolder, onWait: onWait) { try run($0) }
    }

    /// What `thin` refuses before it reads anything (docs/commands.md#thin, exit 2): a build folder without
    /// `odrpack-manifest.json`, an app that is no app bundle, and an app and a build folder that are one folder or one
    /// inside the other (thinning would remove the packs themselves). Returns the build folder.
    package static func checkInputs(app appFolder: FilePath, build: FilePath) throws -> FilePath {
        let location = try BuildManifest.location(of: build)
        guard SystemCall.status(location.file)?.kind == .regular else {
            throw ODRPackError.thin(.noBuildManifest(build: build))
        }
        guard SystemCall.status(appFolder)?.kind == .directory else {
            throw ODRPackError.thin(.appNotAFolder(appFolder))
        }
        let realApp = try LocalFileSystem.realPath(appFolder)
        let realBuild = try LocalFileSystem.realPath(location.folder)
        if realApp == realBuild || realApp.isInside(realBuild) || realBuild.isInside(realApp) {
            throw ODRPackError.thin(
                .appAndBuildOverlap(app: appFolder, build: location.folder, sameFolder: realApp == realBuild))
        }
        guard ["Info.plist", "Contents/Info.plist"].contains(where: { SystemCall.status(appFolder.joined($0)) != nil })
        else {
            throw ODRPackError.thin(.notAnAppBundle(appFolder))
        }
        return location.folder
    }

    /// The app, the folder the packs' paths are relative to in it, and the app's real path: checked to stay inside it.
    struct Location {
        var app: FilePath
        var base: FilePath
        var realApp: FilePath
        /// `--resources-path` with a final "/", or "": what removed paths are reported relative to the app with.
        var relativeBase: String
    }

    func locate() throws -> Location {
        // Lexically, never through Foundation's absolute path: a relative path stays relative to the current folder,
        // whose name may not be UTF-8 (docs/architecture.md#paths).
        let normalized = options.appPath.normalized
        let app = normalized.isEmpty ? FilePath(".") : normalized
        let shown = options.appPath
        guard isFolder(app) else { throw ODRPackError.thin(.appNotAFolder(shown)) }
        // A thin killed before its end leaves the files it moved aside in one temporary folder of the app: they are
        // the app's, so no later thin proceeds (or ships them) until a person has put them back. What it had only
        // staged is removed first (not by a dry run, which changes nothing).
        if !options.dryRun { try removeAbandonedStaging(app: app) }
        if let left = try OutputFolder.names(in: app).sorted()
            .first(where: { $0.hasPrefix(TemporaryName.marker) })
        {
            throw ODRPackError.thin(.interruptedThinLeft(app: shown, name: left))
        }
        var base = app
        if let subfolder = options.resourcesPath {
            let parts = subfolder.slashSeparated()
            guard !subfolder.hasPrefix("/"), !parts.isEmpty, !parts.contains(".."), !parts.contains(".") else {
                throw ODRPackError.thin(.resourcesPathNotRelative(subfolder))
            }
            base = app.joined(parts.joined(separator: "/"))
            guard isFolder(base) else {
                throw ODRPackError.thin(.resourcesPathNotAFolder(subfolder, app: shown))
            }
        }
        // thin removes files: nothing it reaches through a symbolic link may lie outside the app.
        let realApp = try LocalFileSystem.realPath(app)
        if case .success(let status) = LocalFileSystem().status(
            app.joined(AppleManifests.packsFolder), followingLinks: false),
            status.kind == .symbolicLink
        {
            throw ODRPackError.thin(.packsFolderIsLink(app: shown))
        }
        guard try LocalFileSystem.realPath(base).isInside(realApp) else {
            throw ODRPackError.thin(.resourcesPathLeavesApp(options.resourcesPath ?? "", app: shown))
        }
        let relativeBase = options.resourcesPath.map { $0.slashSeparated().joined(separator: "/") + "/" } ?? ""
        return Location(app: app, base: base, realApp: realApp, relativeBase: relativeBase)
    }

    /// What the checks found: the app's files that its packs now hold (path relative to the base, and the bytes the
    /// app loses), the packs none of whose files the app holds, and the diagnostics: `app-file-differs` for every file
    /// whose bytes are not the pack's, one `app-file-converted` for those the app's build converts.
    struct PackedFiles {
        /// The files to remove, as (pack, file) indices into the manifest: 8 bytes a file.
        var toRemove: [RemovedFiles.Entry] = []
        /// The bytes the app loses with them (a converted copy counts the app's size).
        var removedBytes: Int64 = 0
        var unmatchedPacks: [BuildManifest.Pack] = []
        var diagnostics: [Diagnostic] = []
    }

    /// The extensions of files Xcode converts while copying them into an app (strings and plists compiled to binary,
    /// PNGs re-compressed): a copy with other bytes is the same resource (docs/commands.md#thin).
    static let convertedExtensions: Set<String> = ["strings", "stringsdict", "plist", "png"]

    /// - Parameter chunkSize: how many files are checked at once (a test's small one crosses chunk boundaries).
    func packedFiles(of manifest: BuildManifest, in location: Location, chunkSize: Int = chunkSize) throws
        -> PackedFiles
    {
        // The files as (pack index, file index), checked a chunk at a time: only one chunk's findings are held, and
        // of the converted copies only their count and first path.
        let packs = manifest.packs
        var found = PackedFiles()
        var converted = (count: 0, first: String?.none)
        var matched = Set<String>()
        var chunk: [RemovedFiles.Entry] = []
        chunk.reserveCapacity(chunkSize)
        for pack in packs.indices {
            for file in packs[pack].files.indices {
                chunk.append(RemovedFiles.Entry(pack: pack, file: file))
                if chunk.count == chunkSize {
                    try check(chunk, of: packs, in: location, into: &found, converted: &converted, matched: &matched)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
        }
        if !chunk.isEmpty {
            try check(chunk, of: packs, in: location, into: &found, converted: &converted, matched: &matched)
        }
        found.unmatchedPacks = manifest.packs.filter { !$0.files.isEmpty && !matched.contains($0.id) }
        if let first = converted.first {
            let count = converted.count
            found.diagnostics.append(
                .warning(
                    .appFileConverted,
                    """
                    \(count) file\(count == 1 ? "" : "s") at pack destinations differ\(count == 1 ? "s" : "") from the \
                    pack's bytes as the app's build converts them (e.g. '\(first)': strings and plists compiled, PNGs \
                    re-compressed): removed like the others, since the pack holds the same resource
                    """,
                    subject: first))
        }
        return found
    }

    /// How many files `packedFiles` checks at once.
    static let chunkSize = 1 << 16

    /// Checks the files of `chunk` in parallel and adds what it found to `found`, `converted` and `matched`.
    private func check(
        _ chunk: [RemovedFiles.Entry], of packs: [BuildManifest.Pack], in location: Location,
        into found: inout PackedFiles, converted: inout (count: Int, first: String?), matched: inout Set<String>
    ) throws {
        // Each folder's real path once, not a realpath (a readlink for every part of the path) per file; keyed by the
        // folder's path relative to the base (manifest text).
        var realFolders: [PathKey: FilePath] = [:]
        for index in chunk {
            let folder = PathKey(Self.folder(of: packs[Int(index.pack)].files[Int(index.file)].path))
            if realFolders[folder] == nil {
                realFolders[folder] = (try? LocalFileSystem.realPath(location.base.joined(folder.path))) ?? FilePath()
            }
        }
        let findings = try parallelMap(
            chunk, jobs: SystemCall.processorCount, perWorker: { ReadBuffer(size: 1 << 20) }
        ) { buffer, index in
            let (pack, file) = (packs[Int(index.pack)], packs[Int(index.pack)].files[Int(index.file)])
            return try Self.compare(
                location.base.joined(file.path), with: file, pack: pack.tags.joined(separator: "+"),
                insideOf: location.realApp,
                realFolder: realFolders[PathKey(Self.folder(of: file.path))].flatMap { $0.isEmpty ? nil : $0 },
                buffer: buffer)
        }
        for (index, finding) in zip(chunk, findings) {
            let item = (pack: packs[Int(index.pack)], file: packs[Int(index.pack)].files[Int(index.file)])
            let path = location.relativeBase + item.file.path
            switch finding {
            case .absent: continue
            case .same:
                found.toRemove.append(index)
                found.removedBytes = [found.removedBytes, item.file.size].saturatingSum
            case .differs(let why, let size):
                let fileExtension = (item.file.path as NSString).pathExtension.lowercased()
                // The app's own Info.plist is never taken for a converted copy of a resource.
                let isAppInfo = ["Info.plist", "Contents/Info.plist"].contains(path)
                if let size, Self.convertedExtensions.contains(fileExtension), !isAppInfo {
                    found.toRemove.append(index)
                    found.removedBytes = [found.removedBytes, size].saturatingSum
                    converted.count += 1
                    if converted.first.map({ path.precedesByCodePoint($0) }) ?? true { converted.first = path }
                } else {
                    found.diagnostics.append(
                        .error(
                            .appFileDiffers,
                            """
                            '\(path)' in the app \(why): the app and the build come from different sources; rebuild \
                            one from the other's resources
                            """,
                            subject: path))
                }
            }
            matched.insert(item.pack.id)
        }
    }

    /// `pack-files-not-in-app` (docs/commands.md#thin): when the app holds not one file of any pack at its destination
    /// and was not thinned with this build before (it does not hold `installed`, the build's own document, byte for
    /// byte: `installed` names it in the app and in the build), one warning naming a pack; when other packs matched, one for each pack none of whose files it holds.
    /// Packs whose files are all asset-catalog items say the app compiled them into its `Assets.car`.
    func notInAppWarnings(
        _ manifest: BuildManifest, _ found: PackedFiles, in location: Location,
        installed: (name: String, source: FilePath), installedBytes: Data? = nil
    ) -> [Diagnostic] {
        guard !found.unmatchedPacks.isEmpty else { return [] }
        let noneMatched = found.toRemove.isEmpty && !found.diagnostics.contains { $0.code == .appFileDiffers }
        let appDocument = location.app.joined(installed.name)
        // A document thin makes for the app (not a copy of the build's) is compared with its bytes.
        let holdsIt =
            installedBytes.map { Self.contents(of: appDocument, limit: $0.count) == $0 }
            ?? Self.sameBytes(appDocument, installed.source)
        if noneMatched, holdsIt {
            return []
        }
        func isCatalogItem(_ path: String) -> Bool {
            path.slashSeparated().dropLast().contains { $0.lowercased().hasSuffix(".xcassets") }
        }
        func warning(_ packs: [BuildManifest.Pack], all: Bool) -> Diagnostic {
            let pack = packs[0]
            let looked = location.relativeBase + pack.files[0].path
            let name = pack.tags.joined(separator: "+")
            let what =
                all
                ? """
                the app holds none of the packs' files where the packs put them (for pack '\(name)' it looked for \
                '\(looked)'), so nothing was removed
                """
                : "the app holds none of pack '\(name)''s files where the pack puts them (it looked for '\(looked)')"
            let catalog = packs.allSatisfy { $0.files.allSatisfy { isCatalogItem($0.path) } }
            let why: String
            if catalog {
                why = """
                    these are asset-catalog items, which the app's build compiled into its Assets.car instead: build \
                    those packs with Xcode, or move the images out of the catalog
                    """
            } else if all, let folder = Self.oneFolderDown(manifest, base: location.base) {
                why = """
                    the packs' files are one folder down, in '\(location.relativeBase + folder)': pass \
                    --resources-path \(Self.shellWord(location.relativeBase + folder))
                    """
            } else {
                why = """
                    the app and the packs place files differently; check resources-root, the entries' 'into' and \
                    --resources-path
                    """
            }
            return .warning(.packFilesNotInApp, what + ": " + why, subject: looked)
        }
        if noneMatched { return [warning(manifest.packs.filter { !$0.files.isEmpty }, all: true)] }
        return found.unmatchedPacks.map { warning([$0], all: false) }
    }

    /// `name` as a shell word: as it is when it needs no quotes (`Data`), else single-quoted.
    static func shellWord(_ name: String) -> String {
        let plain =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._/-".unicodeScalars.contains($0))
            }
        return plain ? name : ShellCommand.quoted(name)
    }

    /// The folder of `base` (an engine's `Data`) in which the first file of every pack (up to 20 packs) is found: where
    /// the app keeps the packs' files when it holds none of them at their destinations. Nil when no one folder does.
    static func oneFolderDown(_ manifest: BuildManifest, base: FilePath) -> String? {
        let firsts = manifest.packs.lazy.filter { !$0.files.isEmpty }.prefix(20).map { $0.files.path(at: 0) }
        guard !firsts.isEmpty, let names = try? FolderNames.list(base) else { return nil }
        for name in names.prefix(200) {
            guard let text = name.text, !text.hasPrefix(".") else { continue }
            let folder = name.path(in: base)
            guard SystemCall.status(folder)?.kind == .directory else { continue }
            if firsts.allSatisfy({ SystemCall.status(folder.joined($0), followingLinks: false) != nil }) { return text }
        }
        return nil
    }

    /// Adds the checked files to `change` and records them in `result` (what the app loses): one sorted list of
    /// indices into the manifest that both share, never a list of paths.
    func remove(
        _ found: PackedFiles, of manifest: BuildManifest, in location: Location, into result: inout Result,
        change: inout AppTransaction
    ) {
        let files = RemovedFiles(
            packs: manifest.packs.map(\.files), prefix: location.relativeBase, entries: found.toRemove)
        result.removed = files
        result.removedBytes = found.removedBytes
        change.files = files
        change.filesBase = location.base
    }

    /// The work itself, with the build folder open for reading (`session`, whose lock it holds and whose manifest it
    /// thins with): the checks every format shares, then the format's own; the changes are made at the end, all or
    /// nothing, unless there is an error or this is a dry run.
    package func run(_ session: BuildFolderSession) throws -> Result {
        let location = try locate()
        let manifest = try session.manifest()
        let buildFolder = session.folder.path
        let infoPath = try Self.infoPlistPath(of: location.app)
        let (info, _) = try Self.readPlist(infoPath)
        var bundleId: String?
        if case .string(let identifier)? = info["CFBundleIdentifier"] { bundleId = identifier }
        guard bundleId == manifest.bundleId else {
            var result = Result()
            result.bundleId = bundleId
            result.dryRun = options.dryRun
            let has = bundleId.map { "'\($0)'" } ?? "none"
            result.diagnostics = [
                .error(
                    .appBundleIDMismatch,
                    """
                    the app's CFBundleIdentifier is \(has), the build's bundle id '\(manifest.bundleId)': the app and \
                    the build are for different apps; pass the app the build was made for (or set bundle-id in the \
                    manifest and build again)
                    """,
                    subject: infoPath.relative(to: location.app) ?? infoPath.name)
            ]
            return result
        }
        let thinning = manifest.format.thinning
        try thinning.checkApp(info: info, appPath: options.appPath.text, manifest: manifest)
        // Ctrl-C is held from the first file staged in the app to the last rename (docs/commands.md#thin): it stops
        // the staging of embedded packs (what was staged is removed) or waits for the commit, so the app is either
        // as it was or thinned, and never ships a staged `OnDemandResources/.odrpack-tmp-*`; then exit 130.
        return try Interrupt.holding {
            var (result, change) = try thinning.plan(
                self, manifest: manifest, buildFolder: buildFolder, location: location, infoPath: infoPath)
            result.bundleId = bundleId
            result.dryRun = options.dryRun
            if options.signatureWarning, !options.dryRun, !result.unchanged, !result.diagnostics.hasErrors,
                let warning = Self.staleSignature(app: location.app, name: options.appPath.name)
            {
                result.diagnostics.append(warning)
            }
            if result.diagnostics.stopsWriting(warningsAsErrors: options.warningsAsErrors) || options.dryRun {
                return result
            }
            try change.commit()
            return result
        }
    }

    /// `app-signature-stale` for an app with a code signature (`_CodeSignature/`, or `Contents/_CodeSignature/` on
    /// macOS), which thinning breaks, as `ipa` says it (docs/store.md#ipa); nil for an unsigned app.
    static func staleSignature(app: FilePath, name: String) -> Diagnostic? {
        guard
            ["_CodeSignature", "Contents/_CodeSignature"].contains(where: {
                SystemCall.status(app.joined($0), followingLinks: false) != nil
            })
        else { return nil }
        return .warning(
            .appSignatureStale,
            """
            '\(name)' is signed, and thinning it broke its signature: sign it again before running it on a device or \
            shipping it (codesign --force --sign "$IDENTITY" --entitlements App.entitlements '\(name)', on a Mac), or \
            let odrpack ipa --sign-command do it
            """,
            subject: name)
    }

    /// Removes what a thin killed before its end (its process gone) staged in the app and never placed: new plists
    /// beside their final names in the app's root (files), and packs staged in `OnDemandResources/`. Copies of the
    /// build's files only; a folder in the app's root, such as the folder of app files a killed commit had moved
    /// aside, is never removed here (`locate` refuses it).
    func removeAbandonedStaging(app: FilePath) throws {
        let setAside = TemporaryName.digest(of: AppTransaction.setAsideName)
        for name in try TemporaryName.abandoned(in: app, matching: { $0 != setAside })
        where SystemCall.status(app.joined(name), followingLinks: false)?.kind == .regular {
            try OutputFolder.remove(app.joined(name))
        }
        let packs = app.joined(AppleManifests.packsFolder)
        guard SystemCall.status(packs, followingLinks: false)?.kind == .directory else { return }
        for name in try TemporaryName.abandoned(in: packs, matching: { _ in true }) {
            try OutputFolder.remove(packs.joined(name))
        }
    }

    /// `APP/Info.plist` (iOS, tvOS, visionOS), else `APP/Contents/Info.plist` (macOS).
    package static func infoPlistPath(of app: FilePath) throws -> FilePath {
        for path in [app.joined("Info.plist"), app.joined("Contents/Info.plist")] where SystemCall.exists(path) {
            return path
        }
        throw ODRPackError.thin(.noInfoPlist(app))
    }

    /// A whole small file (at most `limit` bytes), or nil when it cannot be read or is larger.
    static func contents(of path: FilePath, limit: Int) -> Data? {
        guard case .success(let bytes) = LocalFileSystem().contents(of: path, limit: limit) else { return nil }
        return Data(bytes)
    }

    /// The largest property list of an app read (its Info.plist, the On-Demand Resources plists).
    package static let maximumPlistBytes = 64 << 20

    package static func readPlist(_ file: FilePath) throws -> (
        [String: PropertyListValue], PropertyListSerialization.PropertyListFormat
    ) {
        let path = file.text
        // Bounded (docs/build-output.md#bounded): an app's plist is kilobytes; a hostile one of a gigabyte is refused
        // before it is read, not parsed into several times its size.
        let data: Data
        switch LocalFileSystem().contents(of: file, limit: maximumPlistBytes) {
        case .success(let bytes): data = Data(bytes)
        case .failure(let error) where error.code == EFBIG:
            throw ODRPackError.thin(.plistTooLarge(file, limit: maximumPlistBytes))
        default: throw ODRPackError.file(.unreadable(file))
        }
        var format = PropertyListSerialization.PropertyListFormat.xml
        guard let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: &format),
            let dictionary = plist as? [String: Any]
        else {
            throw ODRPackError.thin(.notAPlistDictionary(file))
        }
        guard case .dictionary(let values)? = PropertyListValue(foundation: dictionary) else {
            throw ODRPackError.thin(.unsupportedPlistValue(file))
        }
        // Old-style (OpenStep) plists cannot be written back: XML keeps every value.
        return (values, format == .openStep ? .xml : format)
    }

    enum Finding {
        case absent, same
        /// Why (completing "'path' in the app ..."), and the app file's size when it is a regular file inside the app
        /// whose bytes differ (what a converted copy is).
        case differs(String, size: Int64?)
    }

    /// Whether the app's file at `path` is missing, holds the pack's bytes, or differs (the reason completes
    /// "'path' in the app ...").
    /// - Parameter realFolder: the real path of `path`'s folder, when known: a regular file is no link, so its real
    ///   path is that and its name.
    static func compare(
        _ path: FilePath, with file: BuildManifest.File, pack: String, insideOf realApp: FilePath,
        realFolder: FilePath? = nil, buffer: ReadBuffer
    ) throws -> Finding {
        let status: FileStatus
        switch LocalFileSystem().status(path, followingLinks: false) {
        case .success(let found): status = found
        case .failure(let error):
            if error.isMissingOrNotFolder { return .absent }
            throw ODRPackError.io(.stat, path: path, error)
        }
        guard status.kind == .regular else {
            return .differs("is not a regular file, unlike its copy in pack '\(pack)'", size: nil)
        }
        let real =
            try realFolder.flatMap { folder in path.lastComponent.map { folder.appending($0) } }
            ?? LocalFileSystem.realPath(path)
        guard real.isInside(realApp) else {
            return .differs(
                "is reached through a symbolic link that leaves the app, so thin will not remove it", size: nil)
        }
        guard status.stamp.size == file.size else {
            return .differs(
                "is \(status.stamp.size) bytes, not \(file.size) as in pack '\(pack)'", size: status.stamp.size)
        }
        let (_, sha256) = try SourceFile.sha256(of: path, name: path.text, size: file.size, buffer: buffer)
        guard let expected = file.sha256 else {
            throw ODRPackError.thin(.noSHA256(file.path))
        }
        return sha256 == expected
            ? .same : .differs("has other bytes than in pack '\(pack)'", size: status.stamp.size)
    }

    /// Whether `path` and `other` (links followed) are files of the same bytes: compared by size, then by SHA-256 a
    /// buffer at a time, so that a document of tens of MB is never held. False when either cannot be read.
    /// - Parameter buffer: the buffer to read through, for a caller comparing many files; else one of 1 MiB.
    static func sameBytes(_ path: FilePath, _ other: FilePath, buffer: ReadBuffer? = nil) -> Bool {
        guard let left = SystemCall.status(path), let right = SystemCall.status(other), left.kind == .regular,
            right.kind == .regular, left.stamp.size == right.stamp.size
        else { return false }
        let buffer = buffer ?? ReadBuffer(size: 1 << 20)
        guard let first = try? SourceFile.sha256(of: path, size: left.stamp.size, buffer: buffer),
            let second = try? SourceFile.sha256(of: other, size: right.stamp.size, buffer: buffer)
        else { return false }
        return first.sha256 == second.sha256
    }

    /// Everything before the last "/" byte (a name may start with a combining mark, which a Character "/" would miss).
    private static func folder(of path: String) -> String {
        path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(decoding: path.utf8[..<$0], as: UTF8.self) } ?? "."
    }

    private func isFolder(_ path: FilePath) -> Bool { SystemCall.status(path)?.kind == .directory }
}
