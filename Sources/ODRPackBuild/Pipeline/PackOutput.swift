import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// What differs between the formats a build writes (docs/build-output.md and docs/background-assets.md): where the packs go and under which names, what
/// besides content decides their bytes, which writer writes them, and how the build folder is committed. Reuse,
/// parallel writing and cleanup after a failure are the same for every format (`PackBuilder`).
protocol PackOutput {
    /// The folder the packs are written in (absolute): the build folder's `packs(format)`.
    var packsFolder: FilePath { get }
    /// Each pack's name in `packsFolder`, by pack index.
    var fileNames: [String] { get }
    /// Each pack's archive key, by pack index: what besides its content decides its bytes.
    var archiveKeys: [String] { get }

    /// The folders the packs and documents go in, relative to the output folder, the packs' first: each must be a
    /// real folder (never a link) or missing, and resources-root must not be or lie inside the first.
    var folders: [String] { get }
    /// Every path the build creates or replaces, relative to the output folder: where anything stands that the last
    /// build did not write, the build refuses to start (docs/build-output.md#ownership).
    var writes: [String] { get }

    /// `output-foreign-file` for what stands in the packs folder that odrpack did not write, asked before anything
    /// is written: an upload of that folder would carry them.
    func foreignFiles() -> [Diagnostic]
    /// Creates the folders and refuses what cannot be written, before any pack is.
    func prepare() throws
    func temporaryPath(forPack index: Int) -> String
    /// Which files of the packs to write can be copied from the last build's archives (none where another tool
    /// writes the packs, or signing may change them).
    func reusableEntries(toWrite: [Int], known: KnownDigests, previous: BuildState) -> EntryReuse
    /// A writer for one worker thread.
    func makeWriter(spares: CompressorPool, entries: EntryReuse) -> any PackFormatWriter
    /// Whether every file of the output is already what this build would write, when every pack is reused.
    func isUnchanged(facts: [String: PackArchiveFacts], previous: BuildState) -> Bool
    /// Moves the written packs (at their temporary paths) into place, removes what the last build wrote and this one
    /// no longer needs, and writes the other files with odrpack-manifest.json last, through `OutputCommit`, the one
    /// order (and rollback) every format commits in.
    /// Returns the manifest written (made when asked for: a build of a million files writes it a pack at a time and
    /// needs it whole only for `build --json`), the stale packs removed and the state for the next build.
    func commit(facts: [String: PackArchiveFacts], written: [Int], previous: BuildState) throws
        -> (manifest: @Sendable () -> BuildManifest, removed: [String], state: BuildState)
    /// Removes this build's temporaries after a failure (the commit has rolled back whatever it moved).
    func removeTemporaryFiles()
}
