import Foundation
import ODRPackBuildFormat
import ODRPackPlatform

/// The one commit of a build folder, whatever its format (docs/build-output.md#ownership, #atomic and #durable). A
/// format says what its commit moves into place, removes and writes; this does it in the one order that keeps the
/// folder trustworthy, and only to what the folder's build owns:
/// 1. when anything changes, what the commit will create is recorded (`OutputOwnership.writesName`) and the previous
///    odrpack-manifest.json is renamed to `OutputOwnership.journalName` (both flushed): from here until step 5 the
///    folder is an interrupted build, which `verify` refuses and the next build recovers, owning what either names;
/// 2. the written packs move into place (what they replace is set aside), what no longer belongs is set aside, and the
///    packs reach stable storage, while the format makes its documents and the new manifest is written and flushed
///    beside its final name;
/// 3. every other document is written where its bytes changed (the old one set aside);
/// 4. the manifest is renamed into place, last;
/// 5. what was set aside goes, then the journal and the record.
/// A failure anywhere in 1-5 rolls back: new files out, what was set aside back, the previous manifest restored, so
/// the folder is exactly as the previous build left it. Only a kill (or a power cut) leaves the journal.
struct OutputCommit {
    /// The folder, open for writing: a commit runs only under the build's exclusive lock.
    let folder: BuildFolderSession.Writer
    var outputPath: FilePath { folder.folder.path }

    /// What a format's commit moves and removes besides its documents.
    struct Changes {
        /// Written files and folders: each moves from its temporary path to its final one, replacing what is there.
        var placements: [(from: FilePath, to: FilePath)] = []
        /// What the folder's build owns and no longer needs (a missing one is fine).
        var removals: [FilePath] = []
        /// Every path the build writes, relative to the output folder (text, as the record keeps it): recorded before
        /// anything moves.
        var writes: [String] = []
        /// Folders whose leftovers of interrupted builds (temporaries) are cleared first, besides the output folder.
        var temporaryFolders: [FilePath] = []

        /// The removals still there.
        fileprivate func presentRemovals() -> [FilePath] {
            removals.filter { SystemCall.status($0, followingLinks: false) != nil }
        }
    }

    /// What a format's commit writes besides its packs: each document streamed into its file as it is made, never held
    /// whole (docs/build-output.md#bounded).
    struct Documents {
        /// odrpack-manifest.json.
        var manifest: StreamedDocument
        /// Written after the packs are on stable storage, where their bytes changed.
        var files: [(path: FilePath, document: StreamedDocument)] = []

        init(manifest: StreamedDocument, files: [(path: FilePath, document: StreamedDocument)] = []) {
            self.manifest = manifest
            self.files = files
        }

        /// Documents already in memory (small ones, tests).
        init(manifest: [UInt8], files: [(path: FilePath, bytes: Data)] = []) {
            self.init(
                manifest: StreamedDocument(bytes: manifest),
                files: files.map { ($0.path, StreamedDocument(bytes: [UInt8]($0.bytes))) })
        }
    }

    /// One step done, and how to undo it.
    private enum Step {
        /// Something now at `path`, and where what was there before waits.
        case placed(path: FilePath, aside: FilePath?)
        /// What was at `path` waits at `aside`.
        case setAside(path: FilePath, aside: FilePath)
        /// The previous manifest waits at the journal.
        case journaled
        /// A new file at `path`, where nothing was.
        case created(FilePath)
    }

    private var manifestPath: FilePath { folder.folder.manifest }
    private var journalPath: FilePath { folder.folder.journal }
    private var writesPath: FilePath { folder.folder.commitRecord }

    /// - Parameters:
    ///   - make: the documents, and whatever else the format wants from that work.
    ///   - finish: the last look at what `make` gave, with every pack and document in place and the manifest not yet:
    ///     a failure there still rolls back.
    /// - Returns: what `make` gave.
    func run<Made>(
        _ changes: Changes, make: () throws -> (Documents, Made), finish: (inout Made) throws -> Void
    ) throws -> Made {
        // What interrupted builds left, before this one stages its own there; never the journal or the record of what
        // an interrupted commit created, which this one carries on (`begin`).
        for folder in [outputPath] + changes.temporaryFolders {
            try OutputFolder.removeTemporaries(
                in: folder, except: [TemporaryName.processPrefix, OutputOwnership.writesName])
        }
        let (placements, removals) = (changes.placements, changes.presentRemovals())
        let steps = Locked<[Step]>([])
        let staged = Locked<AtomicFile.StagedFile?>(nil)
        func record(_ step: Step) { steps.withLock { $0.append(step) } }
        var made: Made
        do {
            var documents: Documents
            if placements.isEmpty && removals.isEmpty {
                // Nothing moves: when no document's bytes change either, nothing is written at all.
                (documents, made) = try make()
                let changed = documents.files.filter { $0.document.compare(withFileAt: $0.path) != .same }
                if changed.isEmpty && SystemCall.status(journalPath, followingLinks: false) == nil
                    && documents.manifest.compare(withFileAt: manifestPath) == .same
                {
                    try finish(&made)
                    return made
                }
                documents.files = changed
                try begin(changes.writes, record: record)
                try stage(documents.manifest, into: staged)
            } else {
                try begin(changes.writes, record: record)
                (documents, made) = try placeWhileMaking(
                    placements, removals: removals, make: make, staged: staged, record: record)
            }
            try write(documents.files, record: record)
            try finish(&made)
            if let file = staged.withLock({ $0 }) {
                record(.placed(path: manifestPath, aside: nil))
                try file.moveIntoPlace()
            }
        } catch {
            staged.withLock { $0 }?.discard()
            rollBack(steps.withLock { $0 })
            throw error
        }
        // The new manifest is in place: nothing rolls back from here. What was set aside goes before the journal, so
        // a kill in between leaves the journal, which says the folder is unfinished, never a set-aside file beside a
        // finished build (verify reports every name in the packs folder that the manifest does not name).
        for step in steps.withLock({ $0 }) {
            switch step {
            case .placed(_, let aside?), .setAside(_, let aside): try? OutputFolder.remove(aside)
            default: break
            }
        }
        try end()
        return made
    }

    /// Step 2 when packs move: placing is mostly waiting for the disk, so the documents are made, compared with what
    /// is there and the manifest flushed meanwhile. Returns the documents that change, and what `make` gave.
    private func placeWhileMaking<Made>(
        _ placements: [(from: FilePath, to: FilePath)], removals: [FilePath], make: () throws -> (Documents, Made),
        staged: Locked<AtomicFile.StagedFile?>, record: (Step) -> Void
    ) throws -> (Documents, Made) {
        let parts = try parallelMap([true, false], jobs: 2) { placing -> (Documents, Made)? in
            if placing {
                try place(placements, removals: removals, record: record)
                return nil
            }
            var made = try make()
            try stage(made.0.manifest, into: staged)
            // Which documents change is known before the packs are placed: they are compared meanwhile.
            made.0.files = made.0.files.filter { $0.document.compare(withFileAt: $0.path) != .same }
            return made
        }
        guard let result = parts[1] else { preconditionFailure("one part places, the other makes") }
        return result
    }

    /// Step 1: records what the commit creates, then retires the previous manifest to the journal (where an
    /// interrupted build left no manifest, its journal stays the previous build), both durably.
    private func begin(_ writes: [String], record: (Step) -> Void) throws {
        var listed = Set<PathKey>()
        var bytes = Data()
        // The record an interrupted commit left: absent is none, unreadable an error (never read as absent).
        let previous = try OutputOwnership.readRecord(writesPath) ?? []
        for name in previous.split(separator: 0).map({ String(decoding: $0, as: UTF8.self) }) + writes
        where !name.isEmpty && listed.insert(PathKey(name)).inserted {
            bytes.append(contentsOf: Array(name.utf8) + [0])
        }
        let aside = try OutputFolder.moveAside(writesPath)
        record(aside.map { .placed(path: writesPath, aside: $0) } ?? .created(writesPath))
        // The record's bytes reach the disk before its name does; one flush of the folder then makes both renames
        // durable.
        try AtomicFile.stage(bytes, for: writesPath, durable: true).moveIntoPlace(syncingFolder: false)
        if SystemCall.status(manifestPath, followingLinks: false) != nil {
            if let error = SystemCall.rename(manifestPath, to: journalPath) {
                throw ODRPackError.io(.move(to: journalPath), path: manifestPath, error)
            }
            record(.journaled)
        }
        try OutputFolder.syncFolder(outputPath)
    }

    /// Step 2's moves: each written pack replaces what is at its name (set aside), then what no longer belongs is set
    /// aside, and everything moved reaches stable storage before any document names it.
    private func place(_ placements: [(from: FilePath, to: FilePath)], removals: [FilePath], record: (Step) -> Void)
        throws
    {
        for (from, to) in placements {
            let aside = try OutputFolder.moveAside(to)
            if let aside { record(.setAside(path: to, aside: aside)) }
            if let error = SystemCall.rename(from, to: to) {
                throw ODRPackError.io(.move(to: to), path: from, error)
            }
            record(.placed(path: to, aside: nil))
        }
        for path in removals {
            if let aside = try OutputFolder.moveAside(path) { record(.setAside(path: path, aside: aside)) }
        }
        var folders = Set(removals.map(\.parent))
        if !placements.isEmpty { try SystemCall.makeDurable(folder: outputPath, written: placements.map(\.to)) }
        folders.subtract(placements.map(\.to.parent))
        for folder in folders.sorted(by: { $0.string < $1.string }) { try OutputFolder.syncFolder(folder) }
    }

    /// Step 3: each changed document replaces its file (the old one set aside), durably.
    private func write(_ files: [(path: FilePath, document: StreamedDocument)], record: (Step) -> Void) throws {
        for (path, document) in files {
            let aside = try OutputFolder.moveAside(path)
            record(aside.map { .placed(path: path, aside: $0) } ?? .created(path))
            try AtomicFile.stage(document, for: path, durable: true).moveIntoPlace()
        }
    }

    private func stage(_ manifest: StreamedDocument, into staged: Locked<AtomicFile.StagedFile?>) throws {
        let file = try AtomicFile.stage(manifest, for: manifestPath, replacingAnything: true, durable: true)
        staged.withLock { $0 = file }
    }

    /// Step 5: the folder is a finished build again.
    private func end() throws {
        for path in [writesPath, journalPath] {
            if let error = SystemCall.removeFile(path), error.code != ENOENT {
                throw ODRPackError.io(.remove, path: path, error)
            }
        }
        try OutputFolder.syncFolder(outputPath)
    }

    /// Undoes `steps`, last first: the folder is left as the previous build left it. Each undo is tried whatever the
    /// others did; the error that caused the rollback is the one reported.
    private func rollBack(_ steps: [Step]) {
        var folders = Set([outputPath])
        for step in steps.reversed() {
            switch step {
            case .placed(let path, let aside):
                try? OutputFolder.remove(path)
                if let aside { _ = SystemCall.rename(aside, to: path) }
                folders.insert(path.parent)
            case .setAside(let path, let aside):
                if SystemCall.status(path, followingLinks: false) == nil { _ = SystemCall.rename(aside, to: path) }
                folders.insert(path.parent)
            case .journaled:
                _ = SystemCall.rename(journalPath, to: manifestPath)
            case .created(let path):
                try? OutputFolder.remove(path)
            }
        }
        for folder in folders.sorted(by: { $0.string < $1.string }) { try? OutputFolder.syncFolder(folder) }
    }
}
