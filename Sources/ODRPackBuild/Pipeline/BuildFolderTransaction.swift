import ODRPackBuildFormat
import ODRPackPlatform

/// The one way a build writes its folder (docs/build-output.md#ownership, #atomic): it holds the folder open for
/// writing (so the exclusive lock is held for as long as it lives) and what the folder's last build owns (so the
/// format's output replaces or removes only that), and it commits through `OutputCommit`, whose journal and rollback
/// leave the folder either as the last build left it or as this one writes it.
struct BuildFolderTransaction {
    /// The folder, open for writing.
    let folder: BuildFolderSession.Writer
    /// What in the folder the last build wrote: all the commit may replace or remove.
    let ownership: OutputOwnership

    /// Reads what the folder's last build owns (`OutputOwnership.load`), under the writer's lock.
    /// - Parameter needsManifest: read the manifest even when the state vouches for it.
    init(folder: BuildFolderSession.Writer, state: BuildState, needsManifest: Bool) throws {
        self.folder = folder
        ownership = try OutputOwnership.load(folder.folder, state: state, needsManifest: needsManifest)
    }

    init(folder: BuildFolderSession.Writer, ownership: OutputOwnership) {
        self.folder = folder
        self.ownership = ownership
    }

    /// Commits `changes` and the documents `make` gives, in the one order (`OutputCommit.run`).
    func commit<Made>(
        _ changes: OutputCommit.Changes, make: () throws -> (OutputCommit.Documents, Made),
        finish: (inout Made) throws -> Void
    ) throws -> Made {
        try OutputCommit(folder: folder).run(changes, make: make, finish: finish)
    }
}
