import ODRPackCore
import ODRPackPlatform

/// The files a build folder owns (docs/build-output.md#ownership), seen from another command's output FILE: `report
/// --output`, `diff --html` and `import-xcode --output` never replace one (docs/commands.md#scripts), as a build never
/// touches what it did not write.
package enum BuildFolderOwnedFiles {
    /// The build's documents and its lock at the folder's top.
    static let documents: Set<String> = [
        BuildManifest.fileName, AppleManifests.onDemandResourcesFile, AppleManifests.templateFile,
        AppleManifests.manifestFile, BuildFolder.lockFileName, TemporaryName.previousManifest,
        // The upload record (docs/store.md#upload) is `upload`'s: no other command's output replaces it either.
        "odrpack-upload.json", ".odrpack-upload.lock",
    ]
    /// The folders whose whole content the build writes (or reports as foreign).
    static let folders: Set<String> = [
        AppleManifests.packsFolder, BackgroundAssetsLayout.folder, BackgroundAssetsLayout.siteFolder,
    ]

    /// The build folder holding `path` (absolute, links resolved) and the path's place in it, when it is one of the
    /// files that build folder owns; nil otherwise. A build folder is one that holds a build manifest or a build's lock.
    package static func owner(of path: FilePath) -> (folder: FilePath, relative: String)? {
        var folder = path.removingLastComponent()
        var inside: [String] = path.lastComponent.map { [$0.string] } ?? []
        while !inside.isEmpty {
            if isBuildFolder(folder) {
                let owned = inside.count == 1 ? documents.contains(inside[0]) : folders.contains(inside.last!)
                if owned { return (folder, inside.reversed().joined(separator: "/")) }
            }
            guard let last = folder.lastComponent, folder.removingLastComponent() != folder else { return nil }
            inside.append(last.string)
            folder = folder.removingLastComponent()
        }
        return nil
    }

    private static func isBuildFolder(_ folder: FilePath) -> Bool {
        [BuildManifest.fileName, BuildFolder.lockFileName].contains {
            SystemCall.status(folder.joined($0), followingLinks: false)?.kind == .regular
        }
    }
}

extension OutputTarget {
    /// Refuses (exit 2, before anything is written) an output FILE that is one of the command's `inputs`, or one of
    /// the files a build folder owns (its manifest, plists, packs): docs/commands.md#scripts.
    /// - Parameter command: the command, for the message ("report").
    package func refuseInputs(_ inputs: [FilePath], of command: String) throws {
        try refuse(inputs: inputs, command: command)
        guard let path = resolvedFile, let (folder, relative) = BuildFolderOwnedFiles.owner(of: path) else { return }
        throw ODRPackError.output(.outputIsBuildFolderFile(output: name, relative: relative, folder: folder))
    }
}
