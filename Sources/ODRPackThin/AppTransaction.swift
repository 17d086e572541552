import Foundation
import ODRPackPlatform

/// The changes `thin` makes to an app, made all or nothing (docs/commands.md#thin): new files are written beside their
/// final names first; then every file that goes (a packed file, a file being replaced, a stale embedded pack) is
/// moved aside into one temporary folder inside the app, and the new files are renamed into place. Any failure
/// before the end moves everything back, so the app is left byte for byte as it was; only after the last rename is
/// the set-aside folder removed, with the folders the removals emptied.
struct AppTransaction {
    /// The app's root: the set-aside folder lives there, on the app's own file system, so every move is a rename.
    let app: FilePath
    /// The packed files to take out of the app, first: each at `filesBase` joined with its path. Indices, not paths: a
    /// path is made when its file moves, and the folders they leave are found from them then.
    var files = RemovedFiles()
    /// The folder the packs' paths are relative to (the app, or its `--resources-path` folder): each file's path (text)
    /// is joined to it only at the call that moves it (docs/architecture.md#paths).
    var filesBase = FilePath(".")
    /// Other files (or whole folders) to take out of the app, absolute, after `files`.
    var removals: [FilePath] = []
    /// New contents for files, absolute paths; each replaces whatever is there (a link too, never its target).
    var writes: [(path: FilePath, data: Data)] = []
    /// Files copied in from the build folder (`source`), a buffer at a time; each replaces whatever is at `path`.
    var copies: [(path: FilePath, source: FilePath)] = []
    /// Folders already staged under a temporary name (`from`) to move to `to`, replacing what is there.
    var installs: [(from: FilePath, to: FilePath)] = []
    /// Folders that may be empty once the removals are done, removed then if so (never the app itself), beside those
    /// holding `files`.
    var emptiedFolders: [FilePath] = []
    /// Folders this change created to stage into (removed again if it fails, or if left empty).
    var createdFolders: [FilePath] = []

    /// The final name whose temporary is the set-aside folder (`TemporaryName.beside`).
    static let setAsideName = ".odrpack-thin-set-aside"

    /// Makes the changes, or none of them.
    /// - Throws: `ODRPackError` after the app was put back as it was.
    func commit() throws {
        var staged: [(temporary: FilePath, final: FilePath)] = []
        let aside = app.joined(TemporaryName.beside(Self.setAsideName))
        var madeAside = false
        // What was moved, as counts: `displaced` 0..<movedAside went to `aside/index`, `staged` 0..<placed were
        // renamed to their final names (no list of a path per file).
        var (movedAside, placed) = (0, 0)
        var replaced: [FilePath] = []
        do {
            try stageFiles(into: &staged)
            staged += installs.map { ($0.from, $0.to) }
            replaced = staged.map(\.final).filter { SystemCall.status($0, followingLinks: false) != nil }
            let count = displacedCount(replaced: replaced)
            if count > 0 {
                try OutputFolder.makeFolder(aside)
                madeAside = true
            }
            for index in 0..<count {
                let path = displaced(index, replaced: replaced)
                if let failure = SystemCall.rename(path, to: aside.joined("\(index)")) {
                    throw ODRPackError.io(.removeFromApp, path: path, failure)
                }
                movedAside += 1
            }
            for (temporary, final) in staged {
                if let failure = SystemCall.rename(temporary, to: final) {
                    throw ODRPackError.io(.write, path: final, failure)
                }
                placed += 1
            }
        } catch {
            let unrestored = rollBack(
                movedAside: movedAside, replaced: replaced, placed: placed, staged: staged,
                aside: madeAside ? aside : nil)
            guard unrestored.isEmpty else {
                throw ODRPackError.file(
                    .rollBackFailed(cause: Self.describe(error), unrestored: unrestored, aside: aside))
            }
            throw error
        }
        if madeAside { Self.remove(aside: aside, count: movedAside) }
        for folder in (filesFolders() + emptiedFolders + createdFolders).sorted(by: { $0.length > $1.length }) {
            SystemCall.removeFolderIfEmpty(folder)
        }
    }

    /// Writes and copies the new files beside their final names, each listed in `staged` before it is written (a copy
    /// cut off halfway, by a full disk, is removed too). The files thin writes into the app are 0644 whatever the
    /// umask: the same inputs give the same app, and the same IPA (docs/store.md#ipa).
    private func stageFiles(into staged: inout [(temporary: FilePath, final: FilePath)]) throws {
        for (path, data) in writes {
            let temporary = TemporaryName.path(beside: path)
            try AtomicFile.write(data, to: temporary, replacingLinks: true)
            staged.append((temporary, path))
            try Self.setReadable(temporary)
        }
        for (path, source) in copies {
            let temporary = TemporaryName.path(beside: path)
            staged.append((temporary, path))
            try FileCopy.copy(source, to: temporary, permissions: 0o644)
        }
    }

    /// Removes the set-aside folder once the change is made: entry by entry, by the names it was given (Foundation's
    /// removal of the whole folder lists it first: a record per entry, over 100 MB for a million files).
    private static func remove(aside: FilePath, count: Int) {
        for index in 0..<count { try? OutputFolder.remove(aside.joined("\(index)")) }
        SystemCall.removeFolderIfEmpty(aside)
        if SystemCall.status(aside, followingLinks: false) != nil {
            try? OutputFolder.remove(aside)
        }
    }

    /// How many paths go aside: `files`, `removals`, then the final names of staged files that exist (`replaced`).
    private func displacedCount(replaced: [FilePath]) -> Int { files.count + removals.count + replaced.count }

    /// The `index`th path that goes aside, in the order `displacedCount` counts them: a file's path is made here, once.
    private func displaced(_ index: Int, replaced: [FilePath]) -> FilePath {
        if index < files.count { return filesBase.joined(files.relativePath(at: index)) }
        let other = index - files.count
        return other < removals.count ? removals[other] : replaced[other - removals.count]
    }

    /// The folders holding `files` (each ancestor below `filesBase`), absolute, each once: as many as the folders,
    /// not the files, since the files come sorted by path and a folder's files are next to one another.
    private func filesFolders() -> [FilePath] {
        var folders = Set<String>()
        var previous: Substring?
        for index in files.indices {
            let path = files.relativePath(at: index)
            guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { continue }
            let parent = path[..<slash]
            if parent == previous { continue }
            previous = parent
            var parts = parent.slashSeparated()
            while !parts.isEmpty {
                guard folders.insert(parts.joined(separator: "/")).inserted else { break }
                parts = parts.dropLast()
            }
        }
        return folders.map { filesBase.joined($0) }
    }

    /// Undoes what was moved, in reverse (the staged files placed, then the displaced ones), and removes what was
    /// staged and created; returns the paths it could not restore.
    private func rollBack(
        movedAside: Int, replaced: [FilePath], placed: Int, staged: [(temporary: FilePath, final: FilePath)],
        aside: FilePath?
    )
        -> [FilePath]
    {
        var unrestored: [FilePath] = []
        for (temporary, final) in staged.prefix(placed).reversed() where SystemCall.rename(final, to: temporary) != nil
        {
            unrestored.append(temporary)
        }
        if let aside {
            for index in (0..<movedAside).reversed() {
                let path = displaced(index, replaced: replaced)
                if SystemCall.rename(aside.joined("\(index)"), to: path) != nil { unrestored.append(path) }
            }
        }
        // What was staged, the packs staged before `commit` (installs) included, whether or not the failure came
        // before they joined `staged`.
        let temporaries = Set(staged.map(\.temporary) + installs.map(\.from))
        for temporary in temporaries.sorted(by: { $0.string < $1.string })
        where SystemCall.status(temporary, followingLinks: false) != nil {
            try? FileManager.default.removeItem(at: temporary.fileURL)
        }
        if let aside, unrestored.isEmpty { SystemCall.removeFolderIfEmpty(aside) }
        for folder in createdFolders.reversed() { SystemCall.removeFolderIfEmpty(folder) }
        return unrestored
    }

    /// Mode 0644: a file thin wrote is the app's like any other, readable by all.
    private static func setReadable(_ path: FilePath) throws {
        if let failure = SystemCall.setPermissions(path, 0o644) {
            throw ODRPackError.io(.setMode, path: path, failure)
        }
    }

    private static func describe(_ error: any Error) -> String {
        (error as? ODRPackError)?.description ?? "\(error)"
    }
}
