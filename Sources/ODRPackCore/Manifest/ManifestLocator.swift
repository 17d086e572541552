import Foundation
import ODRPackPlatform

/// Finds the manifest a command reads when no MANIFEST is given (docs/commands.md#scripts): `odrpack.yml` in the
/// current folder, then in each parent up to the first folder that holds `.git` (or `/`), as cargo and git look up.
/// The path it returns is relative to the current folder (`../../odrpack.yml`), so every path printed from the
/// manifest stays relative to where the command runs, and the manifest's own relative paths stay relative to its
/// folder, as they are for a path given on the command line.
package struct ManifestLocator {
    package static let fileName = "odrpack.yml"
    /// The longest current folder the search starts from: past it, a path is more likely a loop of links than a
    /// project (docs/commands.md#scripts).
    package static let maximumStartBytes = 1024

    /// The folder the search starts in, absolute; or why the current folder cannot be named (`ODRPackError.manifest`).
    let searchStart: Result<FilePath, ODRPackError>
    /// The folder the search starts in; nil when it cannot be named.
    var start: FilePath? { try? searchStart.get() }

    /// - Parameter currentFolder: where the search starts; by default the current folder as the shell names it
    ///   (`$PWD`, when it names the current folder: a link to a folder is not climbed through its real path), else as
    ///   the system does.
    package init(currentFolder: String? = nil) {
        searchStart = Self.currentFolder().flatMap { current in
            // Absolute (a relative folder is relative to the current one), `.` and `..` folded.
            // The current folder itself, never made again from its text: a name that is not UTF-8 would become
            // another (docs/architecture.md#paths).
            let folder = (currentFolder.map { current.pushing(FilePath($0)) } ?? current).normalized
            guard folder.length <= Self.maximumStartBytes else {
                return .failure(.manifest(.searchStartTooLong(bytes: folder.length, limit: Self.maximumStartBytes)))
            }
            return .success(folder)
        }
    }

    /// The current folder: `$PWD` when it is absolute, free of `.` and `..`, and the same folder (device and inode) as
    /// `.`, as a shell keeps it; else what the system says. The failure, for a current folder that was
    /// removed or that the system cannot name.
    private static func currentFolder() -> Result<FilePath, ODRPackError> {
        if let here = SystemCall.status(FilePath("."), followingLinks: true),
            let logical = ProcessInfo.processInfo.environment["PWD"], let path = FilePath(checking: logical),
            path.isAbsolute, path.normalized == path,
            let status = SystemCall.status(path, followingLinks: true),
            status.stamp.device == here.stamp.device, status.stamp.inode == here.stamp.inode
        {
            return .success(path)
        }
        switch LocalFileSystem().currentFolder() {
        case .success(let path): return .success(path)
        case .failure(let error) where error.code == ENOENT: return .failure(.manifest(.searchStartGone))
        case .failure(let error): return .failure(.manifest(.searchStartUnnamed(error)))
        }
    }

    /// The manifest to read: `given` as is, else the one found.
    /// - Throws: `ODRPackError.manifest` (exit 2) naming the folders searched when none holds `odrpack.yml`, or
    ///   when the one found is not to be trusted.
    package func manifestPath(given: String?) throws -> String {
        try locate(given: given).path
    }

    /// `manifestPath`, and the note a command prints when the manifest was found outside the current folder.
    package func locate(given: String?) throws -> (path: String, note: String?) {
        if let given { return (given, nil) }
        let found = try find()
        // In the folder the search starts in, named by its absolute path when that folder is not the process's own
        // (a command run in-process, docs/architecture.md#commands): no note either.
        guard found != Self.fileName, let start, FilePath(found) != start.joined(Self.fileName) else {
            return (found, nil)
        }
        let absolute = start.pushing(FilePath(found)).normalized
        let named = absolute.string == found ? "'\(found)'" : "'\(found)' ('\(absolute.text)')"
        return (found, "using \(named): there is no \(Self.fileName) in the current folder")
    }

    package func find() throws -> String {
        let start = try searchStart.get()
        var folder = start
        var searched: [FilePath] = []
        var levels = 0
        while true {
            searched.append(folder)
            let candidate = folder.joined(Self.fileName)
            if let status = SystemCall.status(candidate, followingLinks: true), status.kind == .regular {
                var path = levels == 0 ? Self.fileName : String(repeating: "../", count: levels) + Self.fileName
                // `..` is resolved by the system from the real current folder: where that leads elsewhere (a linked
                // current folder), the manifest is named by its absolute path.
                let relative = SystemCall.status(FilePath(path), followingLinks: true)
                if relative?.stamp.device != status.stamp.device || relative?.stamp.inode != status.stamp.inode {
                    path = candidate.string
                }
                try Self.checkTrusted(status, path: path, absolute: candidate)
                return path
            }
            let boundary = SystemCall.status(folder.joined(VersionControl.git), followingLinks: false) != nil
            let parent = folder.parent
            if boundary || folder == "/" || parent == folder || parent.isEmpty { break }
            folder = parent
            levels += 1
        }
        throw ODRPackError.manifest(notFound(searched: searched, stoppedAt: folder))
    }

    /// A manifest found (not given) is used only when the user running odrpack or root owns it and no one else may
    /// write it, as git trusts a repository (`safe.directory`): a manifest decides what is packed and shipped, so one
    /// that someone else could have written is refused, with why and the fix (docs/commands.md#scripts). Group write
    /// counts only for a group other than the user's own: with per-user groups (Debian's and Ubuntu's umask 002)
    /// every file a user makes is group-writable, and that group is the user alone.
    static func checkTrusted(_ status: FileStatus, path: String, absolute: FilePath) throws {
        let user = UInt32(geteuid())
        var why: ManifestFailure.Untrusted?
        if status.owner != user && status.owner != 0 {
            why = .otherOwner(uid: status.owner)
        } else if status.permissions & 0o002 != 0 {
            why = .worldWritable
        } else if status.permissions & 0o020 != 0 && status.group != UInt32(getegid()) {
            why = .groupWritable(gid: status.group)
        }
        guard let why else { return }
        throw ODRPackError.manifest(.untrusted(path: path, absolute: absolute, why: why))
    }

    /// What was searched, and the fix: `odrpack init` only when no folder on the way up holds a manifest at all, not
    /// even past the repository's root (where it belongs to another project, or the repository is nested).
    func notFound(searched: [FilePath], stoppedAt folder: FilePath) -> ManifestFailure {
        let fix: ManifestFailure.NotFoundFix
        if let beyond = manifestBeyond(folder) {
            fix = .outsideRepository(beyond)
        } else if searched.contains(where: { Self.holdsManifestOfOtherName($0) }) {
            fix = .passOtherName
        } else {
            fix = .initialize
        }
        return .notFound(searched: searched, stoppedAt: folder == "/" ? nil : folder, fix: fix)
    }

    /// The first `odrpack.yml` above the folder that ended the search, if any.
    private func manifestBeyond(_ folder: FilePath) -> FilePath? {
        var current = folder
        while current != "/" {
            current = current.parent
            let candidate = current.joined(Self.fileName)
            if SystemCall.status(candidate, followingLinks: true)?.kind == .regular { return candidate }
        }
        return nil
    }

    /// A folder holding `odrpack.yaml` (or a folder named `odrpack.yml`): a manifest is there under another form, so
    /// `init` would only add a second one.
    private static func holdsManifestOfOtherName(_ folder: FilePath) -> Bool {
        SystemCall.status(folder.joined("odrpack.yaml"), followingLinks: true) != nil
            || SystemCall.status(folder.joined(fileName), followingLinks: true) != nil
    }
}
