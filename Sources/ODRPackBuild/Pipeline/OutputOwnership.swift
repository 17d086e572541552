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
    static let writesName = BuildFolder.commitRecordName
    /// The most the record may hold: far more than the names of every pack and document of a build.
    static let writesLimit = 1 << 28

    /// The build folder.
    let folder: BuildFolder
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

    /// Reads what the folder's previous build owns. A build whose state vouches for the manifest (its metadata is
    /// exactly what that build recorded, and its format needs nothing else from it) takes the pack names from the
    /// state and reads nothing.
    /// - Parameter needsManifest: read the manifest even when the state vouches for it (Background Assets versions).
    /// - Throws: `ODRPackError.io` (exit 2) when the manifest, the journal or the record is there but cannot be
    ///   read (EACCES, EISDIR, EIO): what an interrupted commit created would otherwise be forgotten. A manifest that
    ///   is read but corrupt is `unreadable`, for the format to decide.
    static func load(_ folder: BuildFolder, state: BuildState, needsManifest: Bool) throws -> OutputOwnership {
        let outputPath = folder.path.string
        var ownership = OutputOwnership(folder: folder)
        let manifestPath = folder.manifest
        // The manifest's name is odrpack's, unless a folder of the user's stands there: then there is no manifest to
        // read (`check` refuses the folder as in the way).
        let manifestStatus = SystemCall.status(manifestPath, followingLinks: false)
        let usersFolder = manifestStatus?.kind == .directory
        if !usersFolder { ownership.owned.insert(PathKey(BuildManifest.fileName)) }
        let journalPath = folder.journal
        let manifestStamp = BuildState.stamp(at: manifestPath)
        if usersFolder {
            // Nothing of a build's to read.
        } else if manifestStamp != nil || manifestStatus != nil {
            if !needsManifest, let manifestStamp, state.outputs[BuildManifest.fileName] == manifestStamp,
                let vouched = vouchedFormat(by: state)
            {
                ownership.format = vouched.format
                for record in state.packs.values {
                    ownership.owned.insert(FilePath(vouched.packsFolder).joined(record.fileName).key)
                }
            } else {
                try ownership.read(manifestPath)
            }
        } else if SystemCall.status(journalPath, followingLinks: false) != nil {
            try ownership.read(journalPath)
        }
        // What the state says each format wrote: the held format's, or, with no manifest read, every format's.
        for kind in PackFormat.allCases.map(\.building) where ownership.format == nil || ownership.format == kind.format
        {
            ownership.owned.formUnion(
                kind.ownedByState(state, outputPath: outputPath, held: ownership.format == kind.format))
        }
        if let listed = try readRecord(folder.commitRecord) {
            for name in listed.split(separator: 0) where !name.isEmpty {
                ownership.owned.insert(PathKey(String(decoding: name, as: UTF8.self)))
            }
        }
        return ownership
    }

    /// The format whose build the state alone vouches for: every pack it records is that format's, and the format
    /// needs nothing else from the manifest.
    private static func vouchedFormat(by state: BuildState) -> (any PackFormatBuilding)? {
        guard !state.packs.isEmpty else { return nil }
        return PackFormat.allCases.map(\.building).first { kind in
            !kind.ownershipReadsManifest && state.packs.values.allSatisfy { kind.claims(packFileName: $0.fileName) }
        }
    }

    /// The record of what an interrupted commit set out to create, nil when there is none (ENOENT).
    /// - Throws: `ODRPackError.io` (exit 2) when it is there but cannot be read.
    static func readRecord(_ path: FilePath) throws -> [UInt8]? {
        try BoundedFile.readIfPresent(path, limit: writesLimit, what: "the record of an interrupted build's commit")
    }

    /// Reads the build manifest (or journal) at `path`: its format and every path it names, or why its content could
    /// not be read. A failed system call is thrown (a missing file is none): the previous build is then unknown, and
    /// reading it as absent would disown its packs.
    private mutating func read(_ path: FilePath) throws {
        do {
            let manifest = try BuildManifest.load(file: path)
            self.manifest = manifest
            format = manifest.format
            owned.formUnion(Self.names(of: manifest).map(PathKey.init))
        } catch let error as ODRPackError where error.systemError != nil {
            // Gone since its status was read: absent.
            guard error.systemError?.isMissing == true else { throw error }
        } catch {
            unreadable = "\(error)"
        }
    }

    /// Every path relative to the build folder that a build manifest names.
    static func names(of manifest: BuildManifest) -> [String] { manifest.format.kind.names(of: manifest) }

    /// Refuses, before anything is written, a folder the build cannot write without touching what is not its own:
    /// a linked or misplaced output subfolder, resources-root inside what the build writes, a build of the other
    /// format, or a user's file or folder where the build must write.
    /// - Parameters:
    ///   - folders: the folders the build writes in, relative to the output folder (each must be a real folder or
    ///     missing), the first one being where its packs go.
    ///   - writes: the paths it creates or replaces, relative to the output folder.
    /// - Throws: `ODRPackError.unbuildable` (exit 2) naming the path.
    func check(
        outputDirectory: String, format: PackFormat, rootPath: String, folders: [String], writes: [String]
    ) throws {
        let outputPath = folder.path.string
        let shown = Self.shown(outputDirectory)
        if let held = self.format, held != format {
            throw ODRPackError.unbuildable(
                .otherFormat(outputDirectory: outputDirectory, kind: held.kind.nameWithArticle, format: held.rawValue))
        }
        let output: String
        if case .success(let resolved) = LocalFileSystem().resolvedPath(outputPath) {
            output = resolved
        } else {
            output = outputPath
        }
        if rootPath.hasSameBytes(as: output) {
            throw ODRPackError.unbuildable(.outputIsResourcesRoot(outputDirectory: outputDirectory))
        }
        try Self.checkFolders(folder.path, shown: shown, folders: folders)
        if let packs = folders.first, RelativePath.absolutePath(rootPath, isInside: output.slashJoined(packs)) {
            throw ODRPackError.unbuildable(.resourcesRootInPacksFolder(root: rootPath, packsFolder: shown(packs)))
        }
        for relative in writes where !owns(relative) {
            guard SystemCall.status(folder.file(relative), followingLinks: false) != nil else {
                continue
            }
            throw ODRPackError.unbuildable(.inTheWay(shown(relative), outputDirectory: outputDirectory))
        }
    }

    /// A path relative to the output folder as the user wrote the folder.
    private static func shown(_ outputDirectory: String) -> (String) -> String {
        { relative in (outputDirectory.hasSuffix("/") ? outputDirectory : outputDirectory + "/") + relative }
    }

    /// Refuses a symbolic link where any format's folder goes, and anything but a folder where this build's
    /// `folders` go: a build writes and removes files only inside its own output folder.
    private static func checkFolders(_ output: FilePath, shown: (String) -> String, folders: [String]) throws {
        for folder in PackFormat.allKinds.flatMap(\.folders) + folders {
            if let status = SystemCall.status(output.joined(folder), followingLinks: false),
                status.kind != .directory, status.kind == .symbolicLink || folders.contains(folder)
            {
                throw ODRPackError.unbuildable(
                    status.kind == .symbolicLink ? .folderIsLink(shown(folder)) : .notAFolder(shown(folder)))
            }
        }
    }

    /// `output-foreign-file` for every file or folder in an ODR build's `OnDemandResources/` that odrpack did not
    /// write: it stays, and an upload of that folder would carry it.
    func foreignFiles(outputDirectory: String, packsFolder: String) -> [Diagnostic] {
        let names = (try? OutputFolder.names(in: folder.file(packsFolder))) ?? []
        let shown = (outputDirectory.hasSuffix("/") ? outputDirectory : outputDirectory + "/") + packsFolder + "/"
        return names.sorted(by: { $0.precedesByCodePoint($1) }).filter {
            !$0.hasPrefix(TemporaryName.marker) && !owns(packsFolder.slashJoined($0))
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
