import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// `verify` of a Background Assets build (docs/background-assets.md): every `<id>.json` regenerated from the build manifest byte for
/// byte, every `.aar` by size and SHA-256 (odrpack cannot read Apple Archives: the packager made them),
/// `AssetPackTags.json`, and for `hosting: self` the `site/` folder.
struct BackgroundAssetsVerifier {
    let manifest: BuildManifest
    let folder: FilePath
    /// Counts each pack's archive bytes as they are hashed.
    var progress = ProgressBar.silent()

    var packsPath: FilePath { folder.joined(BackgroundAssetsLayout.folder) }

    func verify() throws -> BuildVerifier.Report {
        guard let settings = manifest.backgroundAssets else {
            throw ODRPackError.buildManifest(.noBackgroundAssets)
        }
        let packs = try parallelMap(manifest.packs) { pack in
            BuildVerifier.PackReport(id: pack.id, file: pack.file, diagnostics: problems(of: pack, settings: settings))
        }
        var diagnostics: [Diagnostic] = []
        let tagsFile = BackgroundAssetsLayout.folder.slashJoined(BackgroundAssetsLayout.tagsFile)
        if let problem = compare(tagsFile, with: BackgroundAssetsDocuments.assetPackTagsDocument(manifest)) {
            diagnostics.append(BuildVerifier.problem(.verifyDocumentMismatch, tagsFile, problem))
        }
        diagnostics += siteProblems(settings)
        let extra = try BuildVerifier.unlistedNames(in: packsPath, endingWith: ".aar", manifest: manifest)
        for name in extra {
            diagnostics.append(
                BuildVerifier.problem(
                    .verifyForeignFile, BackgroundAssetsLayout.folder.slashJoined(name),
                    "is an archive \(BuildManifest.fileName) does not list: remove it or build again"))
        }
        return BuildVerifier.Report(packs: packs, extraArchives: extra, diagnostics: diagnostics)
    }

    /// The pack's record recomputed from its tags and files, its ba-package manifest and its archive.
    func problems(of pack: BuildManifest.Pack, settings: BuildManifest.BackgroundAssets) -> [Diagnostic] {
        let platforms = BackgroundAssetsDocuments.platforms(of: pack, in: manifest)
        // The tag set's id, then the platforms when not every platform, then the language
        // (docs/background-assets.md#platforms).
        let suffix = BackgroundAssetsIdentity.suffix(
            platforms: platforms, allPlatforms: settings.platforms, language: pack.language)
        var problems = BuildVerifier.recordProblems(
            pack, bundleId: manifest.bundleId, format: .backgroundAssets, idSuffix: suffix)
        func figure(_ text: String) { problems.append(BuildVerifier.problem(.verifyFiguresMismatch, pack.file, text)) }
        if let language = pack.language, LanguageTag.canonical(language) != language {
            figure("the manifest gives the language '\(language)', which is not a BCP 47 tag in canonical case")
        }
        if platforms.isEmpty || platforms != ApplePlatform.ordered(platforms)
            || !Set(platforms).isSubset(of: settings.platforms)
        {
            figure(
                """
                the manifest gives the platforms \(platforms), not a list in the order iOS, macOS, tvOS, visionOS \
                of the build's platforms \(settings.platforms)
                """
            )
        }
        let id = BackgroundAssetsIdentity.assetPackID(tags: pack.tags) + suffix
        if pack.assetPackId != id {
            figure("the manifest gives the asset pack id '\(pack.assetPackId ?? "")'; its tags make '\(id)'")
        }
        let policy = DownloadPolicy(category: pack.category, events: settings.events)
        if pack.downloadPolicy != policy {
            figure(
                """
                the manifest's downloadPolicy is not the one of a \(pack.category.rawValue) pack with events \
                \(settings.events)
                """
            )
        }
        let manifestFile =
            BackgroundAssetsLayout.folder.slashJoined(BackgroundAssetsLayout.manifestName(of: pack.assetPackId ?? id))
        let files = pack.files
        let document = BackgroundAssetsDocuments.packageManifestDocument(
            assetPackID: pack.assetPackId ?? "", policy: pack.downloadPolicy ?? .onDemand,
            paths: { files.map(\.path) }, language: pack.language, platforms: platforms)
        if let problem = compare(manifestFile, with: document) {
            problems.append(BuildVerifier.problem(.verifyDocumentMismatch, manifestFile, problem))
        }
        var share = ProgressBar.Share(of: progress, bytes: pack.archiveSize ?? 0)
        problems += archiveProblems(
            folder.joined(pack.file), name: pack.file, pack: pack, missing: .verifyMissingPack
        ) { share.add(Int64($0.count)) }
        share.finish()
        return problems
    }

    /// Whether the file at `path` has the archive's recorded size and SHA-256, and begins as an Apple Archive.
    /// - Parameter read: shown each chunk of the archive as it is hashed (progress).
    func archiveProblems(
        _ path: FilePath, name: String, pack: BuildManifest.Pack, missing: DiagnosticCode,
        read: (UnsafeRawBufferPointer) -> Void = { _ in }
    ) -> [Diagnostic] {
        guard case .success(let status) = LocalFileSystem().status(path, followingLinks: false) else {
            return [BuildVerifier.problem(missing, name, "the archive is missing: build again")]
        }
        guard status.kind == .regular else {
            return [BuildVerifier.problem(.verifyArchiveMismatch, name, "the archive is not a regular file")]
        }
        do {
            var head: [UInt8] = []
            let (size, sha256) = try SourceFile.sha256(of: path) { chunk in
                if head.count < AppleArchiveSignature.length {
                    head += chunk.prefix(AppleArchiveSignature.length - head.count)
                }
                read(chunk)
            }
            var problems: [Diagnostic] = []
            if !AppleArchiveSignature.matches(head) {
                problems.append(BuildVerifier.problem(.verifyBAArchiveFormat, name, AppleArchiveSignature.problem))
            }
            if size != pack.archiveSize {
                problems.append(
                    BuildVerifier.problem(
                        .verifyArchiveMismatch, name,
                        "the archive is \(size) bytes, the manifest says \(pack.archiveSize.map(String.init) ?? "nothing")"
                    ))
            }
            if sha256 != pack.archiveSha256 {
                problems.append(
                    BuildVerifier.problem(
                        .verifyArchiveMismatch, name,
                        "the archive has sha256 \(sha256), the manifest says \(pack.archiveSha256 ?? "nothing")"))
            }
            return problems
        } catch {
            return [BuildVerifier.problem(.verifyArchiveMismatch, name, "the archive cannot be read: \(error)")]
        }
    }

    /// A problem when the file (relative to the build folder) does not hold exactly what `document` writes: streamed
    /// against it a chunk at a time (docs/build-output.md#bounded: AssetPackTags.json lists every path, 50 MB at a
    /// million files).
    func compare(_ name: String, with document: StreamedDocument) -> String? {
        DocumentComparison.problem(folder.joined(name), name: name, document: document)
    }

    /// A problem when the file (relative to the build folder) does not hold exactly `text`.
    func compare(_ name: String, with text: String) -> String? {
        DocumentComparison.problem(folder.joined(name), name: name, expected: Array(text.utf8))
    }

    /// `site/` must hold exactly every archive and download-manifest.json for `hosting: self`, and not be there for apple.
    func siteProblems(_ settings: BuildManifest.BackgroundAssets) -> [Diagnostic] {
        let site = BackgroundAssetsLayout.folder.slashJoined(BackgroundAssetsLayout.siteFolder)
        let exists = SystemCall.exists(folder.joined(site))
        guard settings.hosting == .self else {
            return exists
                ? [
                    BuildVerifier.problem(
                        .verifyForeignFile, site,
                        "the build is for hosting apple, yet it has a site folder: build again")
                ]
                : []
        }
        guard let urlPrefix = settings.urlPrefix else {
            return [
                BuildVerifier.problem(
                    .verifyFiguresMismatch, BuildManifest.fileName, "hosting is self but the manifest has no urlPrefix")
            ]
        }
        guard exists else {
            return [BuildVerifier.problem(.verifyDocumentMismatch, site, "'\(site)' is missing: hosting self needs it")]
        }
        var problems: [Diagnostic] = []
        let downloadManifest = site.slashJoined(BackgroundAssetsLayout.downloadManifestFile)
        let live = livePacks(site: site, urlPrefix: urlPrefix)
        if let problem = compare(
            downloadManifest,
            with: BackgroundAssetsDocuments.downloadManifest(manifest, urlPrefix: urlPrefix, live: live))
        {
            problems.append(BuildVerifier.problem(.verifyDocumentMismatch, downloadManifest, problem))
        }
        var expected: Set<String> = [BackgroundAssetsLayout.downloadManifestFile]
        for pack in manifest.packs where live[pack.assetPackId ?? pack.id] == nil {
            let name = BackgroundAssetsLayout.siteName(
                of: pack.assetPackId ?? pack.id, contentHash: pack.contentHash ?? "")
            expected.insert(name)
            problems += archiveProblems(
                folder.joined(site).joined(name), name: site.slashJoined(name), pack: pack,
                missing: .verifyDocumentMismatch)
        }
        let names: [String]
        do {
            names = try OutputFolder.names(in: folder.joined(site))
        } catch {
            return problems + [BuildVerifier.problem(.verifyDocumentMismatch, site, "cannot be listed: \(error)")]
        }
        for name in names.sorted(by: { $0.precedesByCodePoint($1) }) where !expected.contains(name) {
            problems.append(
                BuildVerifier.problem(
                    .verifyForeignFile, site.slashJoined(name),
                    "is not a pack of \(BuildManifest.fileName): remove it or build again"))
        }
        return problems
    }

    /// The packs a build with --published left out of site/ because they are already live at their address, with
    /// their live download size: those whose archive is not in site/ and whose download-manifest.json entry is at
    /// their address. The manifest is read only when about the size the build writes (docs/build-output.md#bounded):
    /// a huge file is a mismatch.
    private func livePacks(site: String, urlPrefix: String) -> [String: Int64] {
        let downloadManifest = site.slashJoined(BackgroundAssetsLayout.downloadManifestFile)
        let bound =
            Int64(
                BackgroundAssetsDocuments.downloadManifest(manifest, urlPrefix: urlPrefix, live: [:]).utf8.count) * 2
            + 65536
        let readable =
            (SystemCall.status(folder.joined(downloadManifest), followingLinks: false)?.stamp.size ?? 0) <= bound
        let listed =
            readable ? (try? PublishedDownloadManifest.load(folder.joined(downloadManifest)))?.packs ?? [:] : [:]
        var live: [String: Int64] = [:]
        for pack in manifest.packs {
            let id = pack.assetPackId ?? pack.id
            let name = BackgroundAssetsLayout.siteName(of: id, contentHash: pack.contentHash ?? "")
            if !SystemCall.exists(folder.joined(site).joined(name)), let entry = listed[id],
                entry.url == BackgroundAssetsDocuments.packURL(urlPrefix, name)
            {
                live[id] = entry.downloadSize
            }
        }
        return live
    }
}
