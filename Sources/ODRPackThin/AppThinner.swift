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
        package let appPath: String
        package let buildPath: String
        package var embed = false
        /// A folder inside the app that the packs' paths are relative to (engines keep their data in one).
        package var resourcesPath: String?
        /// Background Assets builds: the App Group id for `BAAppGroupID`, over the manifest's `app-group`.
        package var appGroup: String?

        package init(appPath: String, buildPath: String) {
            self.appPath = appPath
            self.buildPath = buildPath
        }
    }

    package struct Result: Sendable {
        /// Files removed, relative to the app.
        package var removed: [String] = []
        package var removedBytes: Int64 = 0
        /// Pack file names embedded under `OnDemandResources/`.
        package var embedded: [String] = []
        /// Plists written into the app's root.
        package var installed: [String] = []
        /// Background Assets builds: the Info.plist keys thin set, sorted.
        package var infoPlistKeys: [String] = []
        /// `app-file-differs` errors; when there are any, nothing was changed.
        package var diagnostics: [Diagnostic] = []
    }

    package let options: Options

    package init(options: Options) { self.options = options }

    /// Runs under a shared lock on the build folder (docs/commands.md#thin: thins run together, never during a build of it; a
    /// read-only build folder is read without one).
    /// - Parameter onWait: called once when a build holds the folder and this starts waiting for it.
    /// - Throws: `ODRPackError` when the tool cannot do its job (exit 2).
    package func run(onWait: () -> Void) throws -> Result {
        let lock = try OutputLock.shared(
            folder: try BuildManifest.location(of: options.buildPath).folder,
            fileName: BuildFolder.lockFileName, onWait: onWait)
        return try withExtendedLifetime(lock) { try run() }
    }

    /// The app, the folder the packs' paths are relative to in it, and the app's real path: checked to stay inside it.
    struct Location {
        var app: String
        var base: String
        var realApp: String
        /// `--resources-path` with a final "/", or "": what removed paths are reported relative to the app with.
        var relativeBase: String
    }

    func locate() throws -> Location {
        let app = URL(fileURLWithPath: options.appPath).standardizedFileURL.path
        guard isFolder(app) else {
            throw ODRPackError.unusableInput(
                "'\(options.appPath)' is not a folder: pass the built app bundle (MyGame.app)")
        }
        var base = app
        if let subfolder = options.resourcesPath {
            let parts = subfolder.split(separator: "/")
            guard !subfolder.hasPrefix("/"), !parts.isEmpty, !parts.contains(".."), !parts.contains(".") else {
                throw ODRPackError.unusableInput(
                    "--resources-path '\(subfolder)' must be a relative path inside the app, without '.' or '..'")
            }
            base = app + "/" + parts.joined(separator: "/")
            guard isFolder(base) else {
                throw ODRPackError.unusableInput(
                    "--resources-path '\(subfolder)' is not a folder in '\(options.appPath)'")
            }
        }
        // thin removes files: nothing it reaches through a symbolic link may lie outside the app.
        let realApp = try Self.realPath(app)
        if case .success(let status) = LocalFileSystem().status(
            app + "/" + AppleManifests.packsFolder, followingLinks: false),
            status.kind == .symbolicLink
        {
            throw ODRPackError.unusableInput(
                """
                '\(options.appPath)/\(AppleManifests.packsFolder)' is a symbolic link: thin writes and removes packs \
                there; make it a folder of the app
                """
            )
        }
        guard RelativePath.absolutePath(try Self.realPath(base), isInside: realApp) else {
            throw ODRPackError.unusableInput(
                """
                --resources-path '\(options.resourcesPath ?? "")' leads out of '\(options.appPath)' through a symbolic \
                link: name a folder inside the app
                """
            )
        }
        let relativeBase = options.resourcesPath.map { $0.split(separator: "/").joined(separator: "/") + "/" } ?? ""
        return Location(app: app, base: base, realApp: realApp, relativeBase: relativeBase)
    }

    /// The app's files that its packs now hold (path and size, relative to the base), or `app-file-differs`
    /// for every one whose bytes are not the pack's.
    func packedFiles(of manifest: BuildManifest, in location: Location) throws -> (
        toRemove: [(path: String, size: Int64)], diagnostics: [Diagnostic]
    ) {
        let candidates = manifest.packs.flatMap { pack in pack.files.map { (pack: pack, file: $0) } }
        let findings = try parallelMap(
            candidates, jobs: SystemCall.processorCount, perWorker: { ReadBuffer(size: 1 << 20) }
        ) { buffer, item in
            try Self.compare(
                location.base + "/" + item.file.path, with: item.file, pack: item.pack.tags.joined(separator: "+"),
                insideOf: location.realApp, buffer: buffer)
        }
        var toRemove: [(path: String, size: Int64)] = []
        var diagnostics: [Diagnostic] = []
        for (item, finding) in zip(candidates, findings) {
            switch finding {
            case .absent: break
            case .same: toRemove.append((item.file.path, item.file.size))
            case .differs(let why):
                let path = location.relativeBase + item.file.path
                diagnostics.append(
                    .error(
                        .appFileDiffers,
                        """
                        '\(path)' in the app \(why): the app and the build come from different sources; rebuild one \
                        from the other's resources
                        """,
                        subject: path))
            }
        }
        return (toRemove, diagnostics)
    }

    /// `pack-files-not-in-app` (docs/commands.md#thin): the app holds not one file of any pack at its destination and was not thinned
    /// with this build before (it does not hold `installed`, the build's own document, byte for byte).
    func notInAppWarning(
        _ manifest: BuildManifest, found: Int, in location: Location, installed: (name: String, bytes: Data?)
    ) -> Diagnostic? {
        guard found == 0, let pack = manifest.packs.first(where: { !$0.files.isEmpty }) else { return nil }
        if let bytes = installed.bytes,
            FileManager.default.contents(atPath: location.app + "/" + installed.name) == bytes
        {
            return nil
        }
        let looked = location.relativeBase + pack.files[0].path
        return .warning(
            .packFilesNotInApp,
            """
            the app holds none of the packs' files where the packs put them (for pack \
            '\(pack.tags.joined(separator: "+"))' it looked for '\(looked)'), so nothing was removed: the app and the \
            packs place files differently; check resources-root, the entries' 'into' and --resources-path
            """,
            subject: looked)
    }

    /// Removes the checked files and the folders this empties; records them in `result`.
    func remove(_ toRemove: [(path: String, size: Int64)], in location: Location, into result: inout Result) throws {
        for (path, size) in toRemove {
            if let failure = SystemCall.removeFile(location.base + "/" + path) {
                throw ODRPackError.systemCall("cannot remove '\(location.base)/\(path)'", failure)
            }
            result.removed.append(location.relativeBase + path)
            result.removedBytes = [result.removedBytes, size].saturatingSum
        }
        removeEmptiedFolders(of: toRemove.map(\.path), under: location.base)
        result.removed.sort { $0.precedesByCodePoint($1) }
    }

    /// The work itself, for a caller that holds the lock: the checks every format shares, then the format's own.
    func run() throws -> Result {
        let location = try locate()
        let (manifest, buildFolder) = try BuildManifest.load(options.buildPath)
        switch manifest.format {
        case .odr:
            return try OnDemandResourcesThinner(thinner: self, manifest: manifest, buildFolder: buildFolder).run(
                location)
        case .backgroundAssets:
            return try BackgroundAssetsThinner(thinner: self, manifest: manifest, buildFolder: buildFolder).run(
                location)
        }
    }

    enum Finding {
        case absent, same
        case differs(String)
    }

    /// Whether the app's file at `path` is missing, holds the pack's bytes, or differs (the reason completes
    /// "'path' in the app ...").
    static func compare(
        _ path: String, with file: BuildManifest.File, pack: String, insideOf realApp: String,
        buffer: ReadBuffer
    ) throws -> Finding {
        let status: FileStatus
        switch LocalFileSystem().status(path, followingLinks: false) {
        case .success(let found): status = found
        case .failure(let error):
            if error.isMissingOrNotFolder { return .absent }
            throw ODRPackError.systemCall("cannot stat '\(path)'", error)
        }
        guard status.kind == .regular else {
            return .differs("is not a regular file, unlike its copy in pack '\(pack)'")
        }
        guard RelativePath.absolutePath(try realPath(path), isInside: realApp) else {
            return .differs("is reached through a symbolic link that leaves the app, so thin will not remove it")
        }
        guard status.stamp.size == file.size else {
            return .differs("is \(status.stamp.size) bytes, not \(file.size) as in pack '\(pack)'")
        }
        let (_, sha256) = try SourceFile.sha256(of: path, size: file.size, buffer: buffer)
        guard let expected = file.sha256 else {
            throw ODRPackError.unusableInput(
                "the build manifest has no sha256 for '\(file.path)': rebuild it with odrpack build")
        }
        return sha256 == expected ? .same : .differs("has other bytes than in pack '\(pack)'")
    }

    static func realPath(_ path: String) throws -> String {
        switch LocalFileSystem().resolvedPath(path) {
        case .success(let real): return real
        case .failure(let error): throw ODRPackError.systemCall("cannot resolve '\(path)'", error)
        }
    }

    /// Removes the folders that removing `paths` left empty, deepest first, never `base` itself.
    private func removeEmptiedFolders(of paths: [String], under base: String) {
        var folders = Set<String>()
        for path in paths {
            var parts = path.split(separator: "/").dropLast()
            while !parts.isEmpty {
                folders.insert(parts.joined(separator: "/"))
                parts = parts.dropLast()
            }
        }
        for folder in folders.sorted(by: { $0.count > $1.count }) {
            SystemCall.removeFolderIfEmpty(base + "/" + folder)
        }
    }

    private func isFolder(_ path: String) -> Bool {
        SystemCall.status(path)?.kind == .directory
    }

    func removeItem(_ path: String) throws {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw ODRPackError.fileOperation("cannot remove '\(path)': \(error.localizedDescription)")
        }
    }
}
