import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// What in a build folder odrpack wrote, and so may replace or remove (docs/build-output.md#ownership): what the build
/// manifest already in the folder names (its packs, plists, documents and `site/` files), or, while a build that was
/// interrupted in its commit is recovered, what the manifest it retired names and what it set out to write. Everything
/// else in the folder is the user's: a build leaves it as it is, and refuses to write where it stands.
struct OutputOwnership: Sendable {
    /// The previous build's odrpack-manifest.json while a commit replaces packs in place: renamed there before the
    /// first pack moves, removed once the new manifest is in place. Its presence (with no build holding the lock)
    /// makes the folder an interrupted build, which `verify` refuses and the next build recovers.
    static let journalName = TemporaryName.previousManifest
    /// What a commit set out to create (paths relative to the folder, NUL-separated), written before it moves
    /// anything, so that the build after a kill owns what the killed one placed.
    static let writesName = TemporaryName.marker + "commit-writes"

    /// The format of the build the folder holds (nil: none, or a manifest that cannot be read).
    var format: PackFormat?
    /// The folder's previous build manifest (or the retired one of an interrupted build), when it was read.
    var manifest: BuildManifest?
    /// Why the previous manifest could not be read, when it is there but could not be.
    var unreadable: String?
    /// Paths relative to the folder that odrpack wrote.
    var owned: Set<PathKey> = []

    /// Whether `relative` (a path inside the build folder) is odrpack's.
    func owns(_ relative: String) -> Bool { owned.contains(PathKey(relative)) }

    /// Reads what the folder's previous build owns. An ODR build whose state vouches for the manifest (its metadata is
    /// exactly what that build recorded) takes the pack names from the state and reads nothing.
    /// - Parameter needsManifest: read the manifest even when the state vouches for it (Background Assets versions).
    static func load(outputPath: String, state: BuildState, needsManifest: Bool) -> OutputOwnership {
        var ownership = OutputOwnership()
        let manifestPath = outputPath + "/" + BuildManifest.fileName
        // The manifest's name is odrpack's, unless a folder of the user's stands there.
        if SystemCall.status(manifestPath, followingLinks: false)?.kind != .directory {
            ownership.owned.insert(PathKey(BuildManifest.fileName))
        }
        let journalPath = outputPath + "/" + journalName
        let manifestStamp = BuildState.stamp(atPath: manifestPath)
        let source: String?
        if manifestStamp != nil || SystemCall.status(manifestPath, followingLinks: false) != nil {
            source = manifestPath
        } else if SystemCall.status(journalPath, followingLinks: false) != nil {
            source = journalPath
        } else {
            source = nil
        }
        if !needsManifest, source == manifestPath, let manifestStamp,
            state.outputs[BuildManifest.fileName] == manifestStamp,
            !state.packs.isEmpty, state.packs.values.allSatisfy({ $0.fileName.hasSuffix(".assetpack") })
        {
            ownership.format = .odr
            for record in state.packs.values {
                ownership.owned.insert(PathKey(AppleManifests.packsFolder + "/" + record.fileName))
            }
        } else if let source {
            do {
                let manifest = try BuildManifest.load(source).manifest
                ownership.manifest = manifest
                ownership.format = manifest.format
                ownership.owned.formUnion(names(of: manifest).map(PathKey.init))
            } catch {
                ownership.unreadable = "\(error)"
            }
        }
        if ownership.format == .odr || ownership.format == nil {
            for name in [
                AppleManifests.onDemandResourcesFile, AppleManifests.templateFile, AppleManifests.manifestFile,
            ]
            where ownership.format == .odr
                || (state.outputs[name] != nil
                    && state.outputs[name] == BuildState.stamp(atPath: outputPath + "/" + name))
            {
                ownership.owned.insert(PathKey(name))
            }
        }
        if ownership.format == nil {
            // No manifest to read: what this folder's last build recorded writing, where it is still exactly that
            // (a Background Assets archive brings its `<id>.json` and the folder's documents with it).
            let folder = BackgroundAssetsLayout.folder + "/"
            for record in state.packs.values where !record.archiveStamp.isEmpty {
                let backgroundAssets = record.fileName.hasSuffix(".aar")
                let relative = (backgroundAssets ? folder : AppleManifests.packsFolder + "/") + record.fileName
                guard BuildState.packStamp(atPath: outputPath + "/" + relative) == record.archiveStamp else { continue }
                ownership.owned.insert(PathKey(relative))
                if backgroundAssets {
                    ownership.owned.insert(PathKey(folder + record.fileName.dropLast(4) + ".json"))
                    ownership.owned.insert(PathKey(folder + BackgroundAssetsLayout.tagsFile))
                }
            }
            let site = BackgroundAssetsLayout.siteFolder + "/"
            for (key, stamp) in state.outputs
            where key.hasPrefix(site) && BuildState.stamp(atPath: outputPath + "/" + folder + key) == stamp {
                ownership.owned.insert(PathKey(folder + key))
                ownership.owned.insert(PathKey(folder + site + BackgroundAssetsLayout.downloadManifestFile))
            }
        }
        if let listed = FileManager.default.contents(atPath: outputPath + "/" + writesName) {
            for name in listed.split(separator: 0) where !name.isEmpty {
                ownership.owned.insert(PathKey(String(decoding: name, as: UTF8.self)))
            }
        }
        return ownership
    }

    /// Every path relative to the build folder that a build manifest names.
    static func names(of manifest: BuildManifest) -> [String] {
        var names = manifest.packs.map(\.file)
        switch manifest.format {
        case .odr:
            names += [AppleManifests.onDemandResourcesFile, AppleManifests.templateFile, AppleManifests.manifestFile]
        case .backgroundAssets:
            let folder = BackgroundAssetsLayout.folder
            names.append(folder + "/" + BackgroundAssetsLayout.tagsFile)
            let site = folder + "/" + BackgroundAssetsLayout.siteFolder + "/"
            let selfHosted = manifest.backgroundAssets?.hosting == .self
            if selfHosted { names.append(site + BackgroundAssetsLayout.downloadManifestFile) }
            for pack in manifest.packs {
                guard let id = pack.assetPackId else { continue }
                names.append(folder + "/" + BackgroundAssetsLayout.manifestName(of: id))
                if selfHosted {
                    names.append(site + BackgroundAssetsLayout.siteName(of: id, contentHash: pack.contentHash ?? ""))
                }
            }
        }
        return names
    }

    /// Refuses, before anything is written, a folder the build cannot write without touching what is not its own:
    /// a linked or misplaced output subfolder, resources-root inside what the build writes, a build of the other
    /// format, or a user's file or folder where the build must write.
    /// - Parameters:
    ///   - folders: the folders the build writes in, relative to the output folder (each must be a real folder or
    ///     missing), the first one being where its packs go.
    ///   - writes: the paths it creates or replaces, relative to the output folder.
    /// - Throws: `ODRPackError.unbuildable` (exit 2) naming the path.
    func check(
        outputPath: String, outputDirectory: String, format: PackFormat, rootPath: String, folders: [String],
        writes: [String]
    ) throws {
        let shown = { (relative: String) in
            (outputDirectory.hasSuffix("/") ? outputDirectory : outputDirectory + "/") + relative
        }
        if let held = self.format, held != format {
            throw ODRPackError.unbuildable(
                """
                '\(outputDirectory)' holds a\(held == .odr ? "n On-Demand Resources" : " Background Assets") build \
                (its \(BuildManifest.fileName) says format '\(held.rawValue)'): one folder holds one format, so \
                Background Assets versions never restart; build into another folder
                """
            )
        }
        let output: String
        if case .success(let resolved) = LocalFileSystem().resolvedPath(outputPath) {
            output = resolved
        } else {
            output = outputPath
        }
        if rootPath.hasSameBytes(as: output) {
            throw ODRPackError.unbuildable(
                """
                the output folder '\(outputDirectory)' is resources-root: its packs would become resources; write the \
                build to another folder
                """
            )
        }
        let linkable = [
            AppleManifests.packsFolder, BackgroundAssetsLayout.folder,
            BackgroundAssetsLayout.folder + "/" + BackgroundAssetsLayout.siteFolder,
        ]
        for folder in linkable + folders {
            let path = outputPath + "/" + folder
            if let status = SystemCall.status(path, followingLinks: false), status.kind != .directory,
                status.kind == .symbolicLink || folders.contains(folder)
            {
                throw ODRPackError.unbuildable(
                    status.kind == .symbolicLink
                        ? """
                        '\(shown(folder))' is a symbolic link: a build writes and removes files only inside its own \
                        output folder; replace the link with a folder, or build into another folder
                        """
                        : """
                        '\(shown(folder))' is not a folder, and the build must write its packs there: odrpack did not \
                        write it, so it leaves it alone; move it away, or build into another folder
                        """
                )
            }
        }
        if let packs = folders.first, RelativePath.absolutePath(rootPath, isInside: output + "/" + packs) {
            throw ODRPackError.unbuildable(
                """
                resources-root '\(rootPath)' is '\(shown(packs))' or inside it, the folder the build writes its packs \
                in: the build would replace your resources; write the build to another folder
                """
            )
        }
        for relative in writes where !owns(relative) {
            guard SystemCall.status(outputPath + "/" + relative, followingLinks: false) != nil else { continue }
            throw ODRPackError.unbuildable(
                """
                '\(shown(relative))' is in the way: the build must write there, and odrpack did not write it (the \
                build manifest in '\(outputDirectory)' does not name it); move it away, or build into another folder
                """
            )
        }
    }

    /// `output-foreign-file` for every file or folder in an ODR build's `OnDemandResources/` that odrpack did not
    /// write: it stays, and an upload of that folder would carry it.
    func foreignFiles(outputPath: String, outputDirectory: String, packsFolder: String) -> [Diagnostic] {
        let names = (try? OutputFolder.names(in: outputPath + "/" + packsFolder)) ?? []
        let shown = (outputDirectory.hasSuffix("/") ? outputDirectory : outputDirectory + "/") + packsFolder + "/"
        return names.sorted(by: { $0.precedesByCodePoint($1) }).filter {
            !$0.hasPrefix(TemporaryName.marker) && !owns(packsFolder + "/" + $0)
        }.map { name in
            .warning(
                .outputForeignFile,
                """
                '\(shown + name)' was not written by odrpack: the build leaves it, but an upload of \
                '\(shown)' would carry it; move it out of the build folder
                """,
                subject: shown + name)
        }
    }
}
