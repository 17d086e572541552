import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// Everything a build into a folder keeps for the next build into it, in one versioned binary file
/// (`BuildState+Encoding`, written as a stream): each packed file's digest keyed by its metadata, each pack's archive facts keyed by what decided its bytes, the output files'
/// metadata, and (when the fast path may vouch for the build) what it printed. The file lives outside the output
/// folder, which holds only deterministic output: `$ODRPACK_CACHE_DIR`, else `$XDG_CACHE_HOME/odrpack`, else
/// `~/.cache/odrpack`, named by the output folder's path. A state written by another version of odrpack is ignored
/// whole, so a new version rewrites every pack once (docs/build-output.md).
struct BuildState: Sendable, Equatable {
    /// The format's name and version, then the tool's: either differing makes the file unreadable to this build.
    static var magic: [UInt8] { Array("odrpack-state 6 \(ToolVersion.current)\n".utf8) }

    struct FileRecord: Equatable, Sendable {
        var path: String
        var stamp: FileStamp
        var digest: FileDigest
        /// Its pack's position among the state's packs in id order.
        var pack: Int
    }

    struct PackRecord: Equatable, Sendable {
        var fileName: String
        var archiveKey: String
        var archiveSize: Int64
        var archiveSha256: String
        var contentHash: String
        var uncompressedSize: Int64
        /// The archive's metadata (or a digest of a pack folder's) right after it was moved into place.
        var archiveStamp: String
        /// How many files the pack holds: the records whose `pack` is this pack's position.
        var fileCount: Int
        /// Where the pack's part of the odrpack-manifest.json this build wrote is, when it could be found.
        var manifestPart: ManifestPart?
    }

    /// A pack's bytes in odrpack-manifest.json and what decided them (`BuildManifest.partKey`): a later build whose
    /// pack has the same key copies them from that file instead of writing its file list again.
    struct ManifestPart: Equatable, Sendable {
        var key: String
        var offset: Int64
        var length: Int64
    }

    /// resources-root with every link resolved.
    var rootPath = ""
    /// Every packed file, sorted by path in code-point order.
    var files: FileRecords = []
    var packs: [String: PackRecord] = [:]
    /// What every output file was made from (`PackOutput`'s fingerprint), and the files' metadata once written.
    var outputFingerprint = ""
    var outputs: [String: FileStamp] = [:]
    /// What the build printed, when the up-to-date fast path may print it again (`UpToDateCheck`).
    var replay: Replay?
    /// When the build that recorded the files started reading them, on their file system's clock: what
    /// `vouches(for:)` compares with. Nil vouches for nothing.
    var readStart: ReadStart?

    /// The state file for an output folder (an absolute, standardized path), in the cache folder: `$ODRPACK_CACHE_DIR`,
    /// else `$XDG_CACHE_HOME/odrpack`, else `~/.cache/odrpack` with `~` from `$HOME` or, without it, from the user
    /// database. Never a folder in /tmp, whose name another user could take first; nil when there is no home at all.
    static func location(for outputDirectory: String, environment: [String: String]) -> FilePath? {
        location(forBytes: Array(outputDirectory.utf8), environment: environment)
    }

    /// `location(for:environment:)` of an output folder by its bytes, which for a UTF-8 path are its text's: a folder
    /// whose path is not UTF-8 has a state of its own, never the state of the folder its repaired text names
    /// (docs/architecture.md#paths).
    static func location(for output: FilePath, environment: [String: String]) -> FilePath? {
        location(forBytes: output.bytes, environment: environment)
    }

    private static func location(forBytes outputBytes: [UInt8], environment: [String: String]) -> FilePath? {
        let folder: String
        if let explicit = environment["ODRPACK_CACHE_DIR"], !explicit.isEmpty {
            folder = explicit
        } else if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            folder = xdg + "/odrpack"
        } else if let home = environment["HOME"].flatMap({ $0.isEmpty ? nil : $0 }) ?? SystemCall.userHome?.string {
            folder = home + "/.cache/odrpack"
        } else {
            return nil
        }
        return FilePath(folder).joined(Data(outputBytes).sha256Hex.prefix(32) + ".state")
    }

    /// A state file's name as `location` makes it (32 lowercase hex digits, then `.state`): what a root's index file
    /// may name, so that a hand-edited index cannot point outside the cache folder.
    static func isStateFileName(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        return utf8.count == 38 && name.hasSuffix(".state")
            && utf8.prefix(32).allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The file in the cache folder that names the newest state recorded for a resources-root (links resolved): what
    /// `validate` reads to find what a build of the project already checked (`RecordedChecks`), in one read however
    /// many states the folder holds. Named by a digest of the root's bytes, as a state is by its output folder's;
    /// the `root` prefix keeps the two kinds of name apart. Nil when there is no cache folder.
    static func rootIndexLocation(forRoot rootPath: String, environment: [String: String]) -> FilePath? {
        guard let anyState = location(forBytes: [], environment: environment) else { return nil }
        return anyState.parent.joined(Data(Array("root\u{0}\(rootPath)".utf8)).sha256Hex.prefix(32) + ".root")
    }

    /// Why the cache folder holding `statePath` must not be used, or nil when it may: a folder another user owns, or
    /// that others may write, could hand the build a state that vouches for content the files do not hold
    /// (docs/build-output.md#incremental). Nil too when it does not exist yet (it will be made for this user alone)
    /// or is not a folder (`save` says why it cannot save there).
    static func untrustedFolder(holding statePath: FilePath) -> String? {
        let folder = statePath.parent
        // Missing or not a folder: saving says why it cannot.
        guard let status = SystemCall.status(folder), status.kind == .directory else { return nil }
        let reason: String
        if status.owner != SystemCall.userID {
            reason = "belongs to user \(status.owner), not to you (user \(SystemCall.userID))"
        } else if status.permissions & 0o022 != 0 {
            reason = "may be written by other users (mode \(String(status.permissions, radix: 8)))"
        } else {
            return nil
        }
        return
            """
            the cache folder '\(folder.text)' \(reason), so odrpack does not use it and every build reads every file: \
            make it yours and writable only by you (chmod go-w), or set ODRPACK_CACHE_DIR to a folder that is
            """
    }

    /// The record of the file at `path`, read through the records from the first (for tests and small states: a
    /// build merges the records with its own sorted files instead).
    func file(atPath path: String) -> FileRecord? {
        var path = path
        return path.withUTF8 { utf8 in
            let cursor = files.cursor()
            while cursor.next() {
                let order = cursor.comparePath(with: UnsafeRawBufferPointer(utf8))
                if order == 0 { return cursor.record }
                if order > 0 { return nil }
            }
            return nil
        }
    }

    /// Reads the state of an output folder; a missing, damaged or other version's one is simply empty.
    /// - Parameter fileRecords: false leaves out the file records, which only planning and pack reuse need: then only
    ///   the head of the file is read. With them, every record is read once to check it, and kept on disk.
    /// - Parameter environment: the command's (`ODRPACK_CACHE_DIR`, `XDG_CACHE_HOME`, `HOME`), which names the folder.
    static func load(forOutput outputPath: FilePath, fileRecords: Bool = true, environment: [String: String])
        -> BuildState
    {
        guard let path = location(for: outputPath, environment: environment), untrustedFolder(holding: path) == nil,
            var state = read(path, fileRecords: fileRecords)
        else { return BuildState() }
        // A racily-clean record matches no file, so every use of the records (reuse, the executable-content check,
        // entry reuse) reads such a file again.
        state.files.gate(by: state.readStart)
        return state
    }

    /// Whether a file's recorded metadata vouches for its content (docs/build-output.md#incremental): not when the
    /// file's times are not at least one tick of its file system's clock before the recording build started reading
    /// (`ReadStart`), since then it may have changed again with the same times after it was read. Such a file is
    /// read again.
    func vouches(for stamp: FileStamp) -> Bool {
        readStart?.vouches(for: stamp) ?? false
    }

    /// Saves the state for the next build. It only saves time: a build whose state cannot be written still succeeded.
    /// - Returns: why the state could not be saved (the next build then starts cold), or nil.
    func save(forOutput outputPath: FilePath, environment: [String: String]) -> String? {
        guard let path = BuildState.location(for: outputPath, environment: environment) else {
            return
                """
                there is no cache folder for the build state ($HOME is not set and the user has no home folder), so \
                every build reads every file: set ODRPACK_CACHE_DIR to a folder only you can write
                """
        }
        if let untrusted = BuildState.untrustedFolder(holding: path) { return untrusted }
        do {
            let folder = (path.string as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(
                atPath: (folder as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            if !SystemCall.exists(FilePath(folder)) {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            }
            // Made by another process between the check and here: check again.
            if let untrusted = BuildState.untrustedFolder(holding: path) { return untrusted }
            try write(to: path)
        } catch {
            return
                """
                the build state cannot be saved to '\(path.text)' (\(error)), so the next build will read and write every \
                pack again: make that folder writable, or set ODRPACK_CACHE_DIR to one that is
                """
        }
        // The newest state of this resources-root is this one: a cache, so a failure costs only validate's reuse.
        if !rootPath.isEmpty, let index = BuildState.rootIndexLocation(forRoot: rootPath, environment: environment) {
            try? AtomicFile.write(Array(path.name.utf8), to: index)
        }
        // What odrpack 0.2 kept instead, in two files.
        for legacy in [".cache", ".up-to-date"] {
            _ = SystemCall.removeFile(FilePath(String(path.string.dropLast(".state".count)) + legacy))
        }
        return nil
    }

    /// The metadata of the file at `path` (links followed), or nil when it is missing.
    static func stamp(at path: FilePath) -> FileStamp? { SystemCall.status(path)?.stamp }

    /// What says a written pack is as the build left it: a zip's metadata, or a digest of the name and metadata
    /// of everything in a pack folder (so a file changed, added or removed inside it is seen). Nil when it is missing.
    static func packStamp(at path: FilePath) -> String? {
        packStampAndTimes(at: path)?.stamp
    }

    /// `packStamp`, with the latest change time of the archive or of the folder and everything in it, and the tick
    /// those change times show (`ReadStart.tick`).
    static func packStampAndTimes(at file: FilePath) -> (stamp: String, latestChange: Int64, tick: Int64)? {
        guard let status = SystemCall.status(file, followingLinks: false) else { return nil }
        let change = status.stamp.changeNanoseconds
        if status.kind == .regular {
            return ("f" + text(status.stamp), change, ReadStart.gcd(ReadStart.largestTick, change))
        }
        guard status.kind == .directory else { return nil }
        guard let entries = try? FolderWalk.entries(under: file) else { return nil }
        var hasher = SHA256Hasher()
        var latest = change
        var tick = ReadStart.gcd(ReadStart.largestTick, change)
        for entry in entries {
            hasher.update("/\(entry.path)\0\(entry.status.mode)\0\(text(entry.status.stamp))\n")
            latest = max(latest, entry.status.stamp.changeNanoseconds)
            tick = ReadStart.gcd(tick, entry.status.stamp.changeNanoseconds)
        }
        return ("d" + hasher.finalize(), latest, tick)
    }

    /// A stamp as five numbers.
    static func text(_ stamp: FileStamp) -> String {
        "\(stamp.size)\t\(stamp.modificationNanoseconds)\t\(stamp.changeNanoseconds)\t\(Int64(bitPattern: stamp.inode))\t\(Int64(bitPattern: stamp.device))"
    }
}
