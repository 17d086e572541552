/// What changed under a build while it read or finished it, as a fact of `ODRPackError.changed` (exit 2,
/// `file-changed`): run the build again once it is stable. Names are as the build knows them: a resource by its path
/// in its pack, an output by its path.
package enum FileChange: Sendable, Equatable {
    /// A resource changed between planning and its reading.
    case sincePlanned(String)
    /// A resource changed while it was read.
    case whileRead(String)
    /// A resource's size changed while it was archived: the bytes read, and those planned.
    case whileArchived(String, bytes: Int64, expected: Int64)
    /// A pack being written became shorter (something else truncated it).
    case shortenedWhileWritten(FilePath)
    /// A file appeared in a pack folder after the build wrote it.
    case appearedInPackFolder(String)
    /// The last build's archive is not as the state says it left it.
    case notAsLastBuildLeft(String)
    /// The last build's archive changed while this build copied entries from it.
    case archiveWhileCopied(String)
    /// A resource changed while its Background Assets pack was packaged.
    case whilePackaged(String, pack: String)
    /// The build manifest changed while an up-to-date build replayed it.
    case buildManifestWhileReplayed
    /// The build manifest changed while this build copied parts of it.
    case buildManifestWhileCopied
    /// A pack's file vanished while the build was finishing.
    case packVanished(String)
}

extension FileChange: CustomStringConvertible {
    package var description: String {
        let stable = "run the build again once it is stable"
        switch self {
        case .sincePlanned(let name): return "'\(name)' changed after it was planned: \(stable)"
        case .whileRead(let name): return "'\(name)' changed while it was being read: \(stable)"
        case .whileArchived(let name, let bytes, let expected):
            return "'\(name)' changed while it was being archived (\(bytes) bytes, expected \(expected)): \(stable)"
        case .shortenedWhileWritten(let path):
            return "'\(path.text)' became shorter while it was being written: run the build again"
        case .appearedInPackFolder(let path):
            return "'\(path)' appeared in the pack folder after it was written: run the build again"
        case .notAsLastBuildLeft(let path):
            return "'\(path)' is not as the last build left it: run the build again (or with --no-cache)"
        case .archiveWhileCopied(let path):
            return "'\(path)' changed while this build copied entries from it: run the build again"
        case .whilePackaged(let name, let pack):
            return "'\(name)' changed while pack '\(pack)' was being packaged: \(stable)"
        case .buildManifestWhileReplayed: return "odrpack-manifest.json changed while it was read: build again"
        case .buildManifestWhileCopied:
            return "'odrpack-manifest.json' changed while this build copied from it: build again"
        case .packVanished(let name):
            return "pack '\(name)' vanished while the build was finishing: run the build again"
        }
    }
}
