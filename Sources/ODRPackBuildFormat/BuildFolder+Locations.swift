import ODRPackCore
import ODRPackPlatform

/// Where a build folder's files are (docs/build-output.md#ownership, #atomic), each made once here from the folder:
/// disk paths, as `FilePath`. The paths a manifest names inside the folder (a pack's `file`) stay text until a
/// command joins them to `path`.
extension BuildFolder {
    /// What a commit set out to create (paths relative to the folder, NUL-separated), written before it moves
    /// anything, so that the build after a kill owns what the killed one placed.
    package static let commitRecordName = TemporaryName.marker + "commit-writes"

    /// The folder `folder`, its manifest `odrpack-manifest.json` in it.
    package init(_ folder: FilePath) {
        self.init(path: folder, manifest: folder.joined(BuildManifest.fileName), shownAs: folder)
    }

    /// The build folder `given` names: the folder itself, or its manifest file (then the folder is the file's).
    /// - Throws: `ODRPackError.buildManifest` when `given` does not exist (exit 2).
    package static func locate(_ given: FilePath) throws -> BuildFolder {
        let (file, folder, isFolder) = try BuildManifest.location(of: given)
        return BuildFolder(path: folder, manifest: file, shownAs: isFolder ? given : nil)
    }

    /// The previous build's manifest while a commit replaces packs in place (`TemporaryName.previousManifest`): its
    /// presence, with no build holding the lock, makes the folder an interrupted build.
    package var journal: FilePath { path.joined(TemporaryName.previousManifest) }
    /// The record of what a commit set out to create (`commitRecordName`).
    package var commitRecord: FilePath { path.joined(Self.commitRecordName) }
    /// The folder a build of `format` writes its packs in.
    package func packs(_ format: PackFormat) -> FilePath { path.joined(format.kind.packsFolder) }
    /// A file of the build, at a path the manifest names relative to the folder (a pack's `file`, a document's name).
    package func file(_ relative: String) -> FilePath { path.joined(relative) }

    /// Reads the build manifest whole-stream (docs/build-output.md#bounded).
    /// - Throws: as `BuildManifest.load(file:)`: `buildManifest` when missing or corrupt, `io` when unreadable.
    package func readManifest(keepingSources: Bool = true) throws -> BuildManifest {
        try BuildManifest.load(file: manifest, keepingSources: keepingSources, shownAs: shownAs)
    }
}
