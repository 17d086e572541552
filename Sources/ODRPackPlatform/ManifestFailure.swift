/// Why the tag manifest (`odrpack.yml`) cannot be read at all, or `init` cannot write one, as a fact of
/// `ODRPackError.manifest`; what is wrong inside one that can be read is a `Diagnostic`. Paths are as given on the
/// command line or found (docs/commands.md).
package enum ManifestFailure: Sendable, Equatable {
    /// Nothing at the path given.
    case missing(String)
    /// The path given holds a NUL, which names no file.
    case pathHoldsNul(String)
    /// The path given is a build folder (it holds odrpack-manifest.json), which is what build writes.
    case isBuildFolder(String)
    /// The path given is another folder.
    case isFolder(String)
    /// The current folder cannot be named (its path is too long, or a folder above it went away), and the path given
    /// is relative.
    case currentFolderUnnamed(SystemError)
    /// No manifest was given, and none was found from the current folder up: the folders searched, the folder that
    /// ended the search (nil at `/`, else it holds `.git`), and what the fix is.
    case notFound(searched: [FilePath], stoppedAt: FilePath?, fix: NotFoundFix)
    /// The manifest found (`path` as a command would name it, and absolute) is one someone else could have written.
    case untrusted(path: String, absolute: FilePath, why: Untrusted)
    /// No manifest was given, and the search for one cannot start: the current folder was removed.
    case searchStartGone
    /// No manifest was given, and the search for one cannot start: the system cannot name the current folder.
    case searchStartUnnamed(SystemError)
    /// No manifest was given, and the search for one cannot start: the current folder's path is longer (in bytes)
    /// than the limit the search starts from (`ManifestLocator.maximumStartBytes`).
    case searchStartTooLong(bytes: Int, limit: Int)
    /// `init`: the resources-root given (as given) does not exist.
    case noResourcesFolder(String)
    /// `init`: the resources-root given (as given) is a file.
    case resourcesRootIsFile(String)
    /// `init`: the manifest to write (as given) exists, and `--force` was not passed.
    case exists(String)

    package enum NotFoundFix: Sendable, Equatable {
        /// No folder on the way up holds one: `odrpack init`.
        case initialize
        /// A folder searched holds a manifest of another name (`odrpack.yaml`).
        case passOtherName
        /// One lies above the repository's root: this file.
        case outsideRepository(FilePath)
    }

    package enum Untrusted: Sendable, Equatable {
        case otherOwner(uid: UInt32)
        case worldWritable
        case groupWritable(gid: UInt32)
    }
}

/// Why a build folder's `odrpack-manifest.json` cannot be read (docs/commands.md#verify), as a fact of
/// `ODRPackError.buildManifest`: diff, verify, thin, ipa, report, upload, submit and status read it.
package enum BuildManifestFailure: Sendable, Equatable {
    /// The file's name, said in messages (BuildManifest.fileName).
    package static let fileName = "odrpack-manifest.json"

    /// Nothing at the path given (a build folder or its manifest).
    case missing(FilePath)
    /// The folder given holds no manifest.
    case notABuildFolder(FilePath)
    /// Not JSON: truncated or corrupt. The file as messages name it.
    case invalidJSON(String)
    /// JSON, but a member is missing, of another type, or out of range: the reader's words for which.
    case incomplete(String, problem: String)
    /// Another schema version than this odrpack reads.
    case schemaVersion(String, found: Int, reads: Int)
    /// A Background Assets build's manifest without its `backgroundAssets` member, which `verify` checks against.
    case noBackgroundAssets
}

extension ManifestFailure: CustomStringConvertible {
    package var description: String {
        switch self {
        case .missing(let path):
            return "no manifest at '\(path)': run `odrpack init` to write one, or pass the manifest's path"
        case .pathHoldsNul(let path): return "no manifest at '\(path)': the path holds a NUL"
        case .isBuildFolder(let path):
            return """
                '\(path)' is an odrpack build folder, not a tag manifest: pass the odrpack.yml it was built from \
                (report, diff, verify, thin, ipa, upload, submit and status take a build folder)
                """
        case .isFolder(let path): return "'\(path)' is a folder, not a manifest: pass the path of its odrpack.yml"
        case .currentFolderUnnamed(let error):
            return """
                cannot name the current folder (\(error.reason)): pass the manifest's absolute path, or cd to a \
                shorter path
                """
        case .notFound(let searched, let stoppedAt, let fix):
            let names = searched.map { "'\($0.text)'" }.joined(separator: ", ")
            var message = "no odrpack.yml in \(names)"
            if let stoppedAt { message += " (the search stops at '\(stoppedAt.text)', which holds .git)" }
            switch fix {
            case .outsideRepository(let beyond):
                message += """
                    : '\(beyond.text)' lies outside this repository; pass its path as MANIFEST, or run from a folder \
                    inside it
                    """
            case .passOtherName: message += ": pass the manifest's path as MANIFEST"
            case .initialize: message += ": run `odrpack init` to write one, or pass the manifest's path as MANIFEST"
            }
            return message
        case .untrusted(let path, let absolute, let why):
            let reason: String
            switch why {
            case .otherOwner(let uid): reason = "it belongs to another user (uid \(uid))"
            case .worldWritable: reason = "anyone may write it"
            case .groupWritable(let gid): reason = "its group (gid \(gid)) may write it"
            }
            return """
                the manifest found, '\(path)' ('\(absolute.text)'), is not used: \(reason), so someone else could \
                choose what odrpack packs; pass it as MANIFEST to use it anyway, or make it yours and writable only \
                by you (chown, chmod go-w)
                """
        case .searchStartGone:
            return "the current folder no longer exists (was it removed?): cd to an existing folder, or pass MANIFEST"
        case .searchStartUnnamed(let error):
            return """
                cannot name the current folder (\(error.reason)): cd to a shorter path, or pass the manifest's path as \
                MANIFEST
                """
        case .searchStartTooLong(let bytes, let limit):
            return """
                the current folder's path is over \(limit) bytes (\(bytes)): run from a shorter path, or pass the \
                manifest's path as MANIFEST
                """
        case .noResourcesFolder(let root): return "no folder '\(root)': pass the folder that holds the resources"
        case .resourcesRootIsFile(let root):
            return "'\(root)' is a file: pass the folder that holds the resources (default: this folder)"
        case .exists(let path): return "'\(path)' exists: pass --force to overwrite it"
        }
    }
}

extension BuildManifestFailure: CustomStringConvertible {
    package var description: String {
        switch self {
        case .missing(let path): return "'\(path.text)' does not exist: pass a build folder or its \(Self.fileName)"
        case .notABuildFolder(let folder):
            return "'\(folder.text)' has no \(Self.fileName): is it a finished odrpack build folder?"
        case .invalidJSON(let file):
            return "'\(file)' is not valid JSON (truncated or corrupt): rebuild it with odrpack build"
        case .incomplete(let file, let problem):
            return "'\(file)' is not a complete odrpack build manifest: \(problem): rebuild it with odrpack build"
        case .schemaVersion(let file, let found, let reads):
            return "'\(file)' has schemaVersion \(found); this odrpack reads \(reads): rebuild it with this version"
        case .noBackgroundAssets: return "the build manifest has no backgroundAssets: rebuild it with odrpack build"
        }
    }
}
