import ODRPackPlatform

/// A build folder on disk, and where its files are (docs/build-output.md): what marks one (docs/manifest.md#files-and-links)
/// is the lock file a build or `thin` holds in it, which resolution skips under resources-root and the build layer
/// locks by this name. Its other locations (the manifest, the journal, the packs) are the build format's
/// (`ODRPackBuildFormat`), and a command gets them from the `BuildFolderSession` that opened the folder.
package struct BuildFolder: Sendable, Hashable {
    package static let lockFileName = ".odrpack.lock"

    /// The folder.
    package let path: FilePath
    /// Its build manifest: `odrpack-manifest.json` in it, or the file a command was given in its place (a manifest
    /// read through a pipe, `odrpack diff <(git show ...) new`).
    package let manifest: FilePath
    /// The folder as the command was given it, when it was given as a folder (messages quote it so); nil when the
    /// command was given the manifest file.
    package let shownAs: FilePath?

    package init(path: FilePath, manifest: FilePath, shownAs: FilePath?) {
        self.path = path
        self.manifest = manifest
        self.shownAs = shownAs
    }

    /// The lock file a build holds exclusively, and verify, thin, ipa and upload shared.
    package var lock: FilePath { path.joined(Self.lockFileName) }
}
