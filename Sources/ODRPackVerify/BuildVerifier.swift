import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// `odrpack verify` (docs/commands.md#verify): re-reads every pack of a build folder and checks it against
/// odrpack-manifest.json, through the checker of the build's format.
package struct BuildVerifier {
    package struct PackReport: Sendable {
        package var id: String
        package let file: String
        package var problems: [String]
        package var ok: Bool { problems.isEmpty }
    }

    /// A problem with a file of the build folder that is not one pack's (Background Assets builds).
    package struct FileProblem: Sendable {
        /// Relative to the build folder.
        package let file: String
        package let problem: String
    }

    package struct Report: Sendable {
        package var packs: [PackReport]
        /// Packs in the packs folder that the manifest does not list.
        package let extraArchives: [String]
        package var fileProblems: [FileProblem] = []
        package var ok: Bool { extraArchives.isEmpty && fileProblems.isEmpty && packs.allSatisfy(\.ok) }
    }

    package init() {}

    /// - Throws: `ODRPackError.unusableInput` when the manifest is missing or corrupt.
    package func verify(_ path: String) throws -> Report {
        let (manifest, folder) = try BuildManifest.load(path)
        switch manifest.format {
        case .odr: return try OnDemandResourcesVerifier(manifest: manifest, folder: folder).verify()
        case .backgroundAssets: return try BackgroundAssetsVerifier(manifest: manifest, folder: folder).verify()
        }
    }

    /// The manifest's own figures for a pack, recomputed from its tags and file list: a hand-edited manifest must
    /// not verify clean even when the archive matches the edited lines.
    package static func recordProblems(_ pack: BuildManifest.Pack, bundleId: String, format: PackFormat = .odr)
        -> [String]
    {
        var problems: [String] = []
        let id = PackIdentity.id(bundleID: bundleId, tags: pack.tags)
        if pack.id != id { problems.append("the manifest gives the pack id '\(pack.id)'; its tags make '\(id)'") }
        let file =
            format == .backgroundAssets
            ? BackgroundAssetsLayout.archivePath(of: BackgroundAssetsIdentity.assetPackID(tags: pack.tags))
            : AppleManifests.packsFolder + "/" + PackIdentity.fileName(bundleID: bundleId, tags: pack.tags)
        if pack.file != file { problems.append("the manifest gives the file '\(pack.file)'; its tags make '\(file)'") }
        let total = pack.files.lazy.map(\.size).saturatingSum
        if total != pack.size {
            problems.append("the manifest gives the pack size \(pack.size); its files add up to \(total)")
        }
        let hashes = pack.files.compactMap(\.sha256)
        if let recorded = pack.contentHash, hashes.count == pack.files.count {
            let computed = PackArchiveFacts.contentHash(zip(pack.files, hashes).lazy.map { ($0.path, $0.size, $1) })
            if computed != recorded {
                problems.append("the manifest's contentHash is not the hash of its files' paths, sizes and sha256s")
            }
        }
        return problems
    }

    /// The archives in `folder` (names ending with `suffix`) that the manifest does not list, in code-point order.
    static func unlistedArchives(in folder: String, endingWith suffix: String, manifest: BuildManifest) throws
        -> [String]
    {
        let listed = Set(manifest.packs.map { PathKey(($0.file as NSString).lastPathComponent) })
        return try OutputFolder.names(in: folder).filter { $0.hasSuffix(suffix) && !listed.contains(PathKey($0)) }
            .sorted { $0.precedesByCodePoint($1) }
    }
}
