import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// `odrpack verify` (docs/commands.md#verify): re-reads every pack of a build folder and checks it against
/// odrpack-manifest.json, through the checker of the build's format, and checks the manifest's own figures. Every
/// problem is a `verify-…` diagnostic (docs/diagnostics.md).
package struct BuildVerifier {
    package struct PackReport: Sendable {
        package var id: String
        package let file: String
        package var diagnostics: [Diagnostic]
        package var ok: Bool { !diagnostics.hasErrors }
    }

    package struct Report: Sendable {
        package var packs: [PackReport]
        /// Names in the packs folder (`OnDemandResources/`, or `.aar`s in `BackgroundAssets/`) that the manifest does
        /// not name, in code-point order.
        package var extraArchives: [String] = []
        /// Problems that are not one pack's: the manifest's figures, the documents, foreign files.
        package var diagnostics: [Diagnostic] = []
        /// Every diagnostic: the packs' in pack order, then the others.
        package var allDiagnostics: [Diagnostic] { packs.flatMap(\.diagnostics) + diagnostics }
        package var ok: Bool { packs.allSatisfy(\.ok) && !diagnostics.hasErrors }
    }

    package init() {}

    /// Verifies under a shared lock on the build folder, as `thin` reads it (docs/commands.md#verify): it waits for a
    /// running build; a folder without a lock file (never a build's while it runs) or a read-only one is read without
    /// one, and verify never creates a file there.
    /// - Parameters:
    ///   - progress: counts the packs read and the bytes of their archives (the manifest's `archiveSize`s).
    ///   - onWait: called once when a build holds the folder and this starts waiting for it.
    /// - Throws: `ODRPackError.buildManifest` when the manifest is missing or corrupt, `.buildFolder` when an
    ///   interrupted build left the folder (exit 2).
    package func verify(
        _ path: FilePath, progress: ProgressBar = ProgressBar.silent(), onWait: () -> Void = {}
    ) throws -> Report {
        try BuildFolderSession.reading(path, onWait: onWait) { try verify($0, progress: progress) }
    }

    /// Verifies the folder `session` holds open (`ipa`, which verifies and thins under one lock), its manifest the
    /// session's.
    package func verify(_ session: BuildFolderSession, progress: ProgressBar = ProgressBar.silent()) throws
        -> Report
    {
        try session.refuseInterrupted()
        let manifest = try session.manifest()
        progress.begin(
            units: manifest.packs.count, bytes: manifest.packs.lazy.map { $0.archiveSize ?? 0 }.saturatingSum)
        defer { progress.end() }
        var report = try manifest.format.verifying.verify(manifest, folder: session.folder.path, progress: progress)
        report.diagnostics = ManifestFigures.problems(manifest) + report.diagnostics
        return report
    }

    /// An error about a file of the build folder (relative to it): "<file>: <text>", the file as its subject.
    static func problem(_ code: DiagnosticCode, _ file: String, _ text: String) -> Diagnostic {
        .error(code, "\(file): \(text)", subject: file)
    }

    /// The manifest's own figures for a pack, recomputed from its tags and file list: a hand-edited manifest must
    /// not verify clean even when the archive matches the edited lines.
    /// - Parameter idSuffix: what a Background Assets pack's platforms and language add to its tag set's ids
    ///   (docs/background-assets.md#platforms).
    package static func recordProblems(
        _ pack: BuildManifest.Pack, bundleId: String, format: PackFormat, idSuffix: String = ""
    ) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        func add(_ text: String) { problems.append(problem(.verifyFiguresMismatch, pack.file, text)) }
        let id = PackIdentity.id(bundleID: bundleId, tags: pack.tags) + idSuffix
        if pack.id != id { add("the manifest gives the pack id '\(pack.id)'; its tags make '\(id)'") }
        let file =
            idSuffix.isEmpty
            ? format.kind.packFile(bundleID: bundleId, tags: pack.tags)
            : BackgroundAssetsLayout.archivePath(of: BackgroundAssetsIdentity.assetPackID(tags: pack.tags) + idSuffix)
        if pack.file != file { add("the manifest gives the file '\(pack.file)'; its tags make '\(file)'") }
        let files = pack.files
        let total = files.indices.lazy.map(files.size(at:)).saturatingSum
        if total != pack.size { add("the manifest gives the pack size \(pack.size); its files add up to \(total)") }
        if let recorded = pack.contentHash, let computed = files.contentHash() {
            if computed != recorded {
                add("the manifest's contentHash is not the hash of its files' paths, sizes and sha256s")
            }
        }
        return problems
    }

    /// The names in `folder` that the manifest does not name as a pack's file (only those ending with `suffix`, when
    /// given), in code-point order. A build's temporaries count too: a build writes its packs beside this folder and
    /// leaves none in it outside a commit (where the journal makes the folder an interrupted build), so one here is
    /// not from a finished build, and an upload of the folder would carry it.
    static func unlistedNames(in folder: FilePath, endingWith suffix: String? = nil, manifest: BuildManifest) throws
        -> [String]
    {
        let listed = Set(manifest.packs.map { PathKey($0.file.splitAtLastSlash().map { String($0.name) } ?? $0.file) })
        let names: [String]
        do {
            names = try OutputFolder.names(in: folder)
        } catch {
            // No packs folder at all: every pack is then reported missing.
            guard SystemCall.status(folder, followingLinks: false) != nil else { return [] }
            throw error
        }
        return names.filter {
            !listed.contains(PathKey($0)) && (suffix.map($0.hasSuffix) ?? true)
        }
        .sorted { $0.precedesByCodePoint($1) }
    }
}
