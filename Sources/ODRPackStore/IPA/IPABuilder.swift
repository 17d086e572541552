import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform
import ODRPackThin
import ODRPackVerify

/// `odrpack ipa APP BUILD_DIR --output FILE.ipa` (docs/store.md#ipa): the App Store package of an On-Demand
/// Resources app. It verifies the packs, thins a temporary copy of the app exactly as `thin` does (the same code),
/// runs the sign command on it, and zips `Payload/NAME.app/` with every pack as a folder in
/// `Payload/OnDemandResources/`, plus whatever else an input IPA held. The inputs never change; FILE is written
/// beside its final name and renamed into place, so it is whole or absent (an existing one kept on any error).
package struct IPABuilder {
    package struct Options: Sendable {
        /// The app, the build folder and FILE as the command line named them, bytes and all
        /// (docs/architecture.md#paths).
        package let appPath: FilePath
        package let buildFolder: FilePath
        /// `buildFolder` for messages.
        package var buildPath: String { buildFolder.text }
        package let outputPath: FilePath
        package var signCommand: String?
        package var resourcesPath: String?
        /// Every entry's time, seconds since 1970 (`EntryTime`: `SOURCE_DATE_EPOCH`, else 2000-01-01).
        package var entryTime: Int64 = EntryTime.standard
        /// `--warnings-as-errors`: a warning stops before the IPA is written, as an error does.
        package var warningsAsErrors = false
        /// `--input-root DIR`: the app and the build folder must lie inside DIR, and no link in them may lead out
        /// (docs/commands.md#input-root).
        package var inputRoot: InputRoot?
        /// The command's stdout and stderr, which `--output -` and `/dev/stdout` name: the run's, never assumed to
        /// be the process's (a command run in-process has its own).
        package var streams: CommandStreams

        package init(appPath: FilePath, buildPath: FilePath, outputPath: FilePath, streams: CommandStreams) {
            self.appPath = appPath
            self.buildFolder = buildPath
            self.outputPath = outputPath
            self.streams = streams
        }

        /// A build folder named by text (a test's folder).
        package init(appPath: FilePath, buildPath: String, outputPath: FilePath, streams: CommandStreams) {
            self.init(appPath: appPath, buildPath: FilePath(buildPath), outputPath: outputPath, streams: streams)
        }
    }

    package struct Result: Sendable {
        /// The IPA written (nil when an error diagnostic or a pack that does not verify stopped it).
        package var ipa: String?
        package var size: Int64 = 0
        /// The app's folder name (`Game.app`) and its `CFBundleIdentifier`.
        package var appName = ""
        package var bundleId: String?
        package var removedFiles = 0
        package var removedBytes: Int64 = 0
        /// Pack file names, as in `Payload/OnDemandResources/`.
        package var packs: [String] = []
        package var diagnostics: [Diagnostic] = []
        /// When the packs do not match their manifest: what verify found (exit 1, no IPA).
        package var verifyReport: BuildVerifier.Report?
    }

    package let options: Options
    /// The work in three stages on one bar: the packs verified, the packs copied beside the app, the files zipped.
    package var progress = ProgressBar.silent()

    package init(options: Options) { self.options = options }

    /// - Parameter onWait: called once when a build holds the build folder and this starts waiting for it.
    /// - Throws: `ODRPackError` when the tool cannot do its job (exit 2; `usage`: 64).
    package func run(onWait: () -> Void) throws -> Result {
        if let root = options.inputRoot { try Self.checkInputs(options, inside: root) }
        let location = try BuildManifest.location(of: options.buildFolder)
        guard SystemCall.status(location.file)?.kind == .regular else {
            throw ODRPackError.ipa(.noBuildManifest(options.buildFolder))
        }
        // The build folder open for reading once, for the whole run: the manifest read under its lock is the one ipa
        // checks, verifies, thins the app with and packs (docs/store.md#ipa).
        return try BuildFolderSession.reading(options.buildFolder, onWait: onWait) { try run($0) }
    }

    private func run(_ session: BuildFolderSession) throws -> Result {
        let manifest = try session.manifest()
        guard manifest.format.kind.packsTravelInApp else {
            throw ODRPackError.usage("Background Assets packs are uploaded on their own: odrpack upload")
        }
        let appStatus = try SystemCall.requireStatus(options.appPath, .readKind("the app"))
        let appIsFolder = appStatus.kind == .directory
        if appIsFolder { _ = try AppThinner.checkInputs(app: options.appPath, build: options.buildFolder) }
        // An app of another platform than the build's, before any work (docs/commands.md#platform).
        if appIsFolder, let infoPath = try? AppThinner.infoPlistPath(of: options.appPath),
            let info = try? AppThinner.readPlist(infoPath).0
        {
            try AppPlatform.checkODR(info: info, app: options.appPath.text, buildPlatform: manifest.platform)
        }
        // `-`, standard output by any path, a device or a pipe (docs/commands.md#scripts): the IPA is made in a work
        // folder under the temporary folder and then written there in place, never renamed over it.
        if let target = try Self.inPlaceTarget(options.outputPath, streams: options.streams) {
            return try run(session, appIsFolder: appIsFolder, target: target)
        }
        // Made absolute from the current folder's bytes (`getcwd`), never through Foundation, whose URL repairs a
        // folder name that is not UTF-8 (docs/architecture.md#paths).
        let output = try Self.absolute(options.outputPath)
        guard SystemCall.status(output, followingLinks: false)?.kind != .directory else {
            throw ODRPackError.ipa(.outputIsFolder(options.outputPath))
        }
        // A missing folder of FILE is made once every check has passed, as every --output's is
        // (docs/commands.md#scripts): until then the checks see its nearest existing folder.
        var existing = output.parent
        var missing: [FilePath.Component] = []
        while SystemCall.status(existing) == nil, existing.parent != existing, let last = existing.lastComponent {
            missing.insert(last, at: 0)
            existing = existing.parent
        }
        guard SystemCall.status(existing)?.kind == .directory else {
            throw ODRPackError.ipa(.outputFolderIsFile(options.outputPath, file: existing))
        }
        // FILE and its working copy go beside FILE: never inside an input, which ipa never changes.
        let outputFolder = missing.reduce(try LocalFileSystem.realPath(existing)) { $0.appending($1) }
        let realOutput = output.lastComponent.map { outputFolder.appending($0) } ?? outputFolder
        for (input, isFolder) in [(options.appPath, appIsFolder), (session.folder.path, true)] {
            let real = try LocalFileSystem.realPath(input)
            if isFolder, outputFolder.isInside(real) {
                throw ODRPackError.ipa(.outputInsideInput(options.outputPath, input: input))
            }
            if !isFolder, realOutput == real {
                throw ODRPackError.ipa(.outputIsInput(options.outputPath, input: input))
            }
        }

        return try run(
            session, appIsFolder: appIsFolder, output: output, makesOutputFolder: !missing.isEmpty, target: nil)
    }

    /// The output as `OutputTarget` sees it when it is written in place (`-`, a descriptor, a device, a pipe); nil for
    /// a regular file (or one not there yet), which is written beside and renamed, and for a folder (refused later).
    static func inPlaceTarget(_ path: FilePath, streams: CommandStreams) throws -> OutputTarget? {
        if path != "-", SystemCall.status(path)?.kind == .directory { return nil }
        let target = try OutputTarget(path, streams: streams)
        return target.isInPlace ? target : nil
    }

    private func run(_ session: BuildFolderSession, appIsFolder: Bool, target: OutputTarget) throws -> Result {
        let temporary = FilePath(FileManager.default.temporaryDirectory.path)
        guard SystemCall.status(temporary)?.kind == .directory else {
            throw ODRPackError.ipa(.noTemporaryFolder(temporary))
        }
        // The work folder's name is made from this one's, as if FILE were written there.
        let output = temporary.joined("odrpack.ipa")
        return try run(session, appIsFolder: appIsFolder, output: output, makesOutputFolder: false, target: target)
    }

    /// - Parameters:
    ///   - output: the absolute path the work folder is named beside (FILE, or one in the temporary folder).
    ///   - makesOutputFolder: `output`'s folder is missing and is made once the packs have passed verify.
    ///   - target: where the IPA is written in place, or nil to rename it to `output`.
    private func run(
        _ session: BuildFolderSession, appIsFolder: Bool, output: FilePath, makesOutputFolder: Bool,
        target: OutputTarget?
    ) throws -> Result {
        // 1. The packs must be what their manifest says.
        let report = try BuildVerifier().verify(session, progress: progress)
        guard report.ok else {
            var result = Result()
            result.verifyReport = report
            return result
        }
        // 2. A working folder beside FILE, removed whatever happens, Ctrl-C included (held until it is gone);
        // what a killed ipa left there goes first.
        if makesOutputFolder { try OutputFolder.makeFolder(output.parent) }
        try Self.removeAbandoned(beside: output)
        return try Interrupt.holding {
            let work = TemporaryName.path(beside: output, suffix: Self.workSuffix)
            // Locked while it lives: another ipa removes it only once that lock is free (docs/store.md#ipa).
            let held = try HeldFolder(making: work)
            defer { withExtendedLifetime(held) { try? OutputFolder.remove(work) } }
            let root = work.joined("root")
            try OutputFolder.makeFolder(root)
            let app =
                appIsFolder
                ? try AppCopy.copyFolder(try Self.absolute(options.appPath), into: root)
                : try AppCopy.unpack(options.appPath, into: root)
            // An .ipa's links are known once unpacked: checked before thinning reads through them.
            if !appIsFolder { try options.inputRoot?.checkLinks(under: app, "the app") }
            return try package(app: app, root: root, work: work, session: session, output: output, target: target)
        }
    }

    /// Under `--input-root`, before anything is read: the app and the build folder lie inside it, and no link in a
    /// folder of them leads out (an .ipa's links are checked once it is unpacked).
    static func checkInputs(_ options: Options, inside root: InputRoot) throws {
        let fix = "pass one inside it (Bazel: a declared input of odrpack_ipa)"
        try root.check(options.appPath, "the app '\(options.appPath.text)'", fix: fix)
        try root.check(options.buildFolder, "the build folder '\(options.buildPath)'", fix: fix)
        if SystemCall.status(options.appPath)?.kind == .directory {
            try root.checkLinks(under: options.appPath, "the app")
        }
        if SystemCall.status(options.buildFolder)?.kind == .directory {
            try root.checkLinks(under: options.buildFolder, "the build folder")
        }
    }

    /// What the work folder's name adds to `TemporaryName.path(beside: FILE)`.
    static let workSuffix = "-work"

    /// Removes the work folders (any FILE's) that an `ipa` killed before its end left beside FILE, once no process
    /// holds their lock, whatever process (or PID namespace) made them; and this FILE's unfinished zip that an older
    /// odrpack wrote beside FILE, once its process is gone (docs/store.md#ipa). Nothing else there is touched.
    static func removeAbandoned(beside output: FilePath) throws {
        guard let name = output.lastComponent else { return }
        let folder = output.parent
        let digest = TemporaryName.digest(bytes: name.bytes)
        for name in try TemporaryName.abandoned(in: folder, matching: { $0 == digest }) {
            try OutputFolder.remove(folder.joined(name))
        }
        for name in try TemporaryName.others(
            in: folder,
            matching: {
                $0.hasSuffix(workSuffix) && $0.utf8.count == digest.utf8.count + workSuffix.utf8.count
            })
        {
            try HeldFolder.removeIfAbandoned(folder.joined(name))
        }
    }

    /// What the sign command must leave (docs/store.md#ipa): the app, its Info.plist, the executable that names (when
    /// it named one before), and none of the files thinning took out.
    private func checkSigned(app: FilePath, executable: String?, removed: RemovedFiles, name: String) throws {
        func fail(_ change: IPAFailure.SignedAppChange) -> ODRPackError { .ipa(.signCommandChangedApp(name, change)) }
        guard SystemCall.status(app, followingLinks: false)?.kind == .directory else {
            throw fail(.removedApp)
        }
        let infoPath = ["Info.plist", "Contents/Info.plist"].map { app.joined($0) }.first {
            SystemCall.status($0)?.kind == .regular
        }
        guard let infoPath else { throw fail(.removedInfoPlist) }
        if executable != nil {
            let info = try? AppThinner.readPlist(infoPath).0
            guard case .string(let named)? = info?["CFBundleExecutable"], !named.isEmpty else {
                throw fail(.removedExecutableName)
            }
            let place = infoPath == app.joined("Contents/Info.plist") ? "/Contents/MacOS/" : "/"
            // The name is the plist's text: one holding a NUL names no file. The executable must be a file inside the
            // app: a name with a slash (`../../bin/sh`) or a symbolic link leads elsewhere (docs/store.md#ipa).
            guard !named.contains("/"), named != ".", named != "..",
                FilePath(checking: String(place.dropFirst()) + named).flatMap({
                    SystemCall.status(app.pushing($0), followingLinks: false)
                })?.kind == .regular
            else {
                throw fail(.noExecutable(String(place.dropFirst()) + named))
            }
        }
        for index in removed.indices
        where SystemCall.status(app.joined(removed[index]), followingLinks: false) != nil {
            throw fail(.putBack(removed[index]))
        }
    }

    /// Thins, signs and zips the copy at `app` (inside `root`).
    private func package(
        app: FilePath, root: FilePath, work: FilePath, session: BuildFolderSession, output: FilePath,
        target: OutputTarget?
    ) throws -> Result {
        let manifest = try session.manifest()
        var result = Result()
        result.appName = app.name
        // 3. Thin the copy as thin does.
        var thinOptions = AppThinner.Options(appPath: app, buildPath: options.buildFolder)
        thinOptions.resourcesPath = options.resourcesPath
        thinOptions.signatureWarning = false
        let thinned = try AppThinner(options: thinOptions).run(session)
        result.bundleId = thinned.bundleId
        result.removedFiles = thinned.removed.count
        result.removedBytes = thinned.removedBytes
        result.diagnostics = thinned.diagnostics
        if thinned.diagnostics.stopsWriting(warningsAsErrors: options.warningsAsErrors) { return result }

        // 4. Sign the thinned app, or say its signature no longer holds.
        if let command = options.signCommand {
            let executable = try? Self.executableName(app)
            try ShellCommand.run(
                ShellCommand.filling(command, path: try Self.commandText(of: app)), what: "the sign command",
                on: "'\(result.appName)'")
            try Interrupt.checkpoint()
            try checkSigned(app: app, executable: executable, removed: thinned.removed, name: result.appName)
        } else if ["_CodeSignature", "Contents/_CodeSignature"].contains(where: {
            SystemCall.status(app.joined($0), followingLinks: false) != nil
        }) {
            result.diagnostics.append(
                .warning(
                    .appSignatureStale,
                    """
                    '\(result.appName)' is signed, and \(thinned.removed.count == 0 ? "installing the On-Demand Resources plists" : "removing the packed files") broke its signature: pass \
                    --sign-command 'codesign --force --sign "$IDENTITY" --entitlements App.entitlements {}' (on a \
                    Mac), or sign the IPA's app before uploading it
                    """,
                    subject: result.appName))
        }

        if result.diagnostics.stopsWriting(warningsAsErrors: options.warningsAsErrors) { return result }

        // 5. Every pack as a folder beside the app.
        let packsFolder = root.joined("Payload").joined(AppleManifests.packsFolder)
        try OutputFolder.remove(packsFolder)
        try OutputFolder.makeFolder(packsFolder)
        let packs = manifest.packs.sorted(by: { $0.file.precedesByCodePoint($1.file) })
        let shares = packs.map(PackExtractor.writtenBytes(of:))
        progress.begin(units: packs.count, bytes: shares.saturatingSum, unit: "packs")
        for (pack, bytes) in zip(packs, shares) {
            try Interrupt.checkpoint()
            let name = pack.file.splitAtLastSlash().map { String($0.name) } ?? pack.file
            var share = ProgressBar.Share(of: progress, bytes: bytes)
            _ = try PackExtractor.extract(session.folder.file(pack.file), to: packsFolder.joined(name)) {
                share.add($0)
            }
            share.finish()
            result.packs.append(name)
        }
        progress.end()

        // 6. The zip, beside FILE, renamed into place; or written in place into a device, a pipe, standard output.
        // Inside the work folder, so under its lock: only this process ever removes it while it runs.
        let temporary = work.joined("ipa")
        if let target {
            defer { progress.end() }
            result.size = try IPAArchiver.archive(
                root, to: temporary, entryTime: options.entryTime, progress: progress)
            try target.write(Self.contents(of: temporary, size: result.size))
            result.ipa = options.outputPath.text
            return result
        }
        do {
            defer { progress.end() }
            result.size = try IPAArchiver.archive(
                root, to: temporary, entryTime: options.entryTime, progress: progress)
            try SystemCall.makeDurable(folder: output.parent, written: [temporary])
            if let failure = SystemCall.rename(temporary, to: output) {
                throw ODRPackError.io(.write, path: options.outputPath, failure)
            }
        } catch {
            _ = SystemCall.removeFile(temporary)
            throw error
        }
        result.ipa = options.outputPath.text
        return result
    }

    /// The file at `path` as a document streamed a chunk at a time (docs/build-output.md#bounded).
    private static func contents(of path: FilePath, size: Int64) -> StreamedDocument {
        StreamedDocument { sink in
            let input = try SourceFile(path: path, name: path.text, expected: nil, size: size)
            defer { input.close() }
            let buffer = ReadBuffer(size: DocumentSink.chunkSize)
            try input.stream(into: buffer.bytes) { piece in
                sink.buffer.append(contentsOf: piece)
                try sink.flushIfFull()
            }
        }
    }

    /// The app's `CFBundleExecutable`, nil when its Info.plist names none.
    static func executableName(_ app: FilePath) throws -> String? {
        guard
            case .string(let name)? = try AppThinner.readPlist(try AppThinner.infoPlistPath(of: app)).0[
                "CFBundleExecutable"],
            !name.isEmpty
        else { return nil }
        return name
    }

    /// The app's path as the sign command's text (a shell command is text): the path itself when it is UTF-8, else
    /// its part below the current folder, which the command runs in and whose own name may not be UTF-8
    /// (docs/architecture.md#paths).
    static func commandText(of app: FilePath) throws -> String {
        if let text = String(validating: app.bytes, as: UTF8.self) { return text }
        var rest = app
        if case .success(let current) = LocalFileSystem().currentFolder(), rest.removePrefix(current),
            let text = String(validating: rest.bytes, as: UTF8.self), !text.isEmpty
        {
            return text
        }
        throw ODRPackError.ipa(.signCommandPathNotText(app))
    }

    /// `path` from the root: a relative one joined to the current folder's bytes, `.` and `..` folded lexically.
    static func absolute(_ path: FilePath) throws -> FilePath {
        switch LocalFileSystem().absolute(path) {
        case .success(let absolute): return absolute.normalized
        case .failure(let error): throw ODRPackError.call(.currentFolder, error)
        }
    }
}
