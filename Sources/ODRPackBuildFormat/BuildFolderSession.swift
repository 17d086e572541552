import ODRPackCore
import ODRPackPlatform

/// A build folder opened by a command, holding the lock its access needs for as long as the session lives
/// (docs/build-output.md, "One build at a time"; docs/commands.md#verify and #thin): `open(forWriting:)` takes the
/// exclusive lock a build holds, creating the folder and its lock file; `open(forReading:)` takes the shared lock
/// verify, thin, ipa, upload, submit, status and diff hold, so readers run together and never during a build. Which
/// lock a command takes is decided here, once, not by each command. A reader takes the folder's locations from
/// `folder` and its build manifest from `manifest()`, read once under the lock: what it checks is what it uses.
/// `@unchecked Sendable` because: every stored property is a `let` of a Sendable type but `lock`, which is only
/// released (by `deinit` or `abandon`), and the manifest is read and kept inside `loaded.withLock`.
package final class BuildFolderSession: @unchecked Sendable {
    /// What the session may do to the folder, which decides its lock.
    package enum Access: Sendable, Equatable {
        /// Shared with other readers; waits for a writer.
        case reading
        /// Exclusive; waits for (or, without `wait`, refuses) any other holder.
        case writing
    }

    /// The build folder and its locations.
    package let folder: BuildFolder
    package let access: Access
    /// A reader's manifest leaves out the files' sources when the command never asks for them (`diff`).
    private let keepingSources: Bool
    /// Nil for a reader of a folder without a lock file or with one it cannot open: no build ran or runs there.
    fileprivate let lock: OutputLock?
    /// The build manifest, once read.
    private let loaded = Locked<BuildManifest?>(nil)

    private init(folder: BuildFolder, access: Access, keepingSources: Bool = true, lock: OutputLock?) {
        self.folder = folder
        self.access = access
        self.keepingSources = keepingSources
        self.lock = lock
    }

    /// Whether the session holds a lock: always for a writer; for a reader, unless the folder has no lock file (no
    /// build ever ran there, so none runs now) or cannot be opened (read-only: no writer to wait for).
    package var isLocked: Bool { lock != nil }

    /// The folder's build manifest as it is under the session's lock, read once (the first call; later calls give
    /// the same value): a build may have replaced it before the lock was taken, never while it is held.
    /// - Throws: `ODRPackError.buildManifest` when it is missing or corrupt, `io` when it cannot be read (exit 2).
    package func manifest() throws -> BuildManifest {
        try loaded.withLock { loaded in
            if let loaded { return loaded }
            let manifest = try folder.readManifest(keepingSources: keepingSources)
            loaded = manifest
            return manifest
        }
    }

    /// Opens the build folder `path` names (the folder or its odrpack-manifest.json) for reading, under a shared lock.
    /// A reader never creates a file in the folder, and opens only a lock file that is a regular file (a FIFO there
    /// would block the open).
    /// - Parameters:
    ///   - keepingSources: false leaves the files' sources out of `manifest()` (`BuildManifest.load`).
    ///   - onWait: called once when a build holds the folder and this starts waiting for it.
    package static func open(forReading path: FilePath, keepingSources: Bool = true, onWait: () -> Void = {}) throws
        -> BuildFolderSession
    {
        let folder = try BuildFolder.locate(path)
        var lock: OutputLock?
        // A symbolic link there is opened too, to be refused (never followed): docs/build-output.md#one-build-at-a-time.
        switch SystemCall.status(folder.lock, followingLinks: false)?.kind {
        case .regular?, .symbolicLink?:
            lock = try OutputLock.shared(folder: folder.path, fileName: BuildFolder.lockFileName, onWait: onWait)
        default: break
        }
        return BuildFolderSession(folder: folder, access: .reading, keepingSources: keepingSources, lock: lock)
    }

    /// A build folder open for writing, the exclusive lock held: only `open(forWriting:)` makes one, so what takes
    /// one (a build's commit) cannot run on a folder whose lock it does not hold.
    package struct Writer {
        package let session: BuildFolderSession
        /// The build folder and its locations.
        package var folder: BuildFolder { session.folder }

        fileprivate init(_ session: BuildFolderSession) { self.session = session }

        /// For a build that ends without committing: a folder the session created goes again, and a folder that holds
        /// no build (no odrpack-manifest.json, no journal) keeps no lock file, which would mark a user's folder as a
        /// build folder (resolution skips those).
        package func abandon() {
            session.lock?.removeIfNotABuildFolder(markers: [BuildManifest.fileName, TemporaryName.previousManifest])
        }
    }

    /// Opens `folder` for a build, under the exclusive lock, creating the folder when it is missing.
    /// - Parameters:
    ///   - shownAs: the folder as the user wrote it, for the message when another holder has it.
    ///   - wait: wait for another holder (calling `onWait` first); false refuses at once.
    /// - Throws: `ODRPackError.folderLocked` (exit 2) without `wait` when another build or thin holds the folder.
    package static func open(forWriting folder: FilePath, shownAs: String, wait: Bool, onWait: () -> Void = {}) throws
        -> Writer
    {
        do {
            let lock = try OutputLock(folder: folder, fileName: BuildFolder.lockFileName, wait: wait, onWait: onWait)
            return Writer(BuildFolderSession(folder: BuildFolder(folder), access: .writing, lock: lock))
        } catch ODRPackError.folderLocked {
            throw ODRPackError.folderLocked(.buildFolderInUse(shownAs))
        }
    }

    /// Runs `body` with the folder `path` names open for reading, the lock released when it returns or throws.
    package static func reading<T>(
        _ path: FilePath, keepingSources: Bool = true, onWait: () -> Void = {}, _ body: (BuildFolderSession) throws -> T
    ) throws -> T {
        let session = try open(forReading: path, keepingSources: keepingSources, onWait: onWait)
        return try withExtendedLifetime(session) { try body(session) }
    }

    /// Refuses a folder an interrupted build left (its journal, the previous manifest, is still there): its packs are
    /// part old, part new until the next build recovers it.
    /// - Throws: `ODRPackError.buildFolder` (exit 2).
    package func refuseInterrupted() throws {
        guard SystemCall.status(folder.journal, followingLinks: false) != nil else { return }
        throw ODRPackError.buildFolder(.interrupted(folder.path))
    }
}
