import Foundation
import ODRPackPlatform

/// The changes `thin` makes to an app, made all or nothing (docs/commands.md#thin): new files are written beside their
/// final names first; then every file that goes (a packed file, a file being replaced, a stale embedded pack) is
/// moved aside into one temporary folder inside the app, and the new files are renamed into place. Any failure
/// before the end moves everything back, so the app is left byte for byte as it was; only after the last rename is
/// the set-aside folder removed, with the folders the removals emptied.
struct AppTransaction {
    /// The app's root: the set-aside folder lives there, on the app's own file system, so every move is a rename.
    let app: String
    /// Files (or whole folders) to take out of the app, absolute.
    var removals: [String] = []
    /// New contents for files, absolute paths; each replaces whatever is there (a link too, never its target).
    var writes: [(path: String, data: Data)] = []
    /// Folders already staged under a temporary name (`from`) to move to `to`, replacing what is there.
    var installs: [(from: String, to: String)] = []
    /// Folders that may be empty once the removals are done, removed then if so (never the app itself).
    var emptiedFolders: [String] = []
    /// Folders this change created to stage into (removed again if it fails, or if left empty).
    var createdFolders: [String] = []

    /// Makes the changes, or none of them.
    /// - Throws: `ODRPackError` after the app was put back as it was.
    func commit() throws {
        var staged: [(temporary: String, final: String)] = []
        let aside = app + "/" + TemporaryName.beside(".odrpack-thin-set-aside")
        var moved: [(from: String, to: String)] = []
        var madeAside = false
        do {
            for (path, data) in writes {
                let temporary = TemporaryName.path(beside: path)
                try AtomicFile.write(data, to: temporary, replacingLinks: true)
                staged.append((temporary, path))
            }
            staged += installs.map { ($0.from, $0.to) }
            let displaced =
                removals + staged.map(\.final).filter { SystemCall.status($0, followingLinks: false) != nil }
            if !displaced.isEmpty {
                try OutputFolder.makeFolder(aside)
                madeAside = true
            }
            for (index, path) in displaced.enumerated() {
                let target = aside + "/\(index)"
                if let failure = SystemCall.rename(path, to: target) {
                    throw ODRPackError.systemCall("cannot remove '\(path)' from the app", failure)
                }
                moved.append((path, target))
            }
            for (temporary, final) in staged {
                if let failure = SystemCall.rename(temporary, to: final) {
                    throw ODRPackError.systemCall("cannot write '\(final)'", failure)
                }
                moved.append((temporary, final))
            }
        } catch {
            let unrestored = rollBack(moved: moved, staged: staged, aside: madeAside ? aside : nil)
            guard unrestored.isEmpty else {
                throw ODRPackError.fileOperation(
                    """
                    \(Self.describe(error)); putting the app back also failed for \(unrestored.joined(separator: ", ")) \
                    (the removed files are in '\(aside)')
                    """
                )
            }
            throw error
        }
        if madeAside { try? FileManager.default.removeItem(atPath: aside) }
        for folder in (emptiedFolders + createdFolders).sorted(by: { $0.utf8.count > $1.utf8.count }) {
            SystemCall.removeFolderIfEmpty(folder)
        }
    }

    /// Undoes `moved` in reverse and removes what was staged and created; returns the paths it could not restore.
    private func rollBack(
        moved: [(from: String, to: String)], staged: [(temporary: String, final: String)], aside: String?
    )
        -> [String]
    {
        var unrestored: [String] = []
        for (from, to) in moved.reversed() where SystemCall.rename(to, to: from) != nil {
            unrestored.append(from)
        }
        // What was staged, the packs staged before `commit` (installs) included, whether or not the failure came
        // before they joined `staged`.
        let temporaries = Set(staged.map(\.temporary) + installs.map(\.from))
        for temporary in temporaries.sorted() where SystemCall.status(temporary, followingLinks: false) != nil {
            try? FileManager.default.removeItem(atPath: temporary)
        }
        if let aside, unrestored.isEmpty { SystemCall.removeFolderIfEmpty(aside) }
        for folder in createdFolders.reversed() { SystemCall.removeFolderIfEmpty(folder) }
        return unrestored
    }

    private static func describe(_ error: any Error) -> String {
        (error as? ODRPackError)?.description ?? "\(error)"
    }
}
