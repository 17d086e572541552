#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one name scheme of everything written beside its final name: `.odrpack-tmp-<pid>-<digest of the final name>`.
/// Short whatever the final name (a pack's file name may take 240 of the 255 bytes a name may have), unique per
/// final name and process, and recognisable, so the next build clears what a killed one left.
package enum TemporaryName {
    package static let marker = ".odrpack-tmp-"
    /// The previous build's odrpack-manifest.json while a commit replaces packs in place (docs/build-output.md#atomic):
    /// a temporary by name, but one that only the commit that made it, or the build that recovers it, removes.
    package static let previousManifest = marker + "previous-manifest.json"

    /// What this process's temporaries start with.
    package static var processPrefix: String { marker + "\(getpid())-" }

    package static func beside(_ finalName: String) -> String {
        var hasher = SHA256Hasher()
        hasher.update(finalName)
        return processPrefix + String(hasher.finalize().prefix(20))
    }

    /// `beside` of a final name given as the file system's bytes: the digest of those bytes, so a name that is not
    /// UTF-8 gets its own temporary, not the one of its repaired text.
    static func beside(bytes finalName: [UInt8]) -> String {
        var hasher = SHA256Hasher()
        finalName.withUnsafeBytes { hasher.update($0) }
        return processPrefix + String(hasher.finalize().prefix(20))
    }

    /// The names in `folder` that a process now gone left under this scheme and that `matches` accepts given what
    /// follows `<pid>-` (the digest and any suffix): a killed command's temporaries, which the next one writing there
    /// removes (docs/store.md#ipa). A live process's, and this process's, are never named.
    package static func abandoned(in folder: FilePath, matching matches: (Substring) -> Bool) throws -> [String] {
        try OutputFolder.names(in: folder).filter { name in
            guard name.hasPrefix(marker) else { return false }
            let rest = name.dropFirst(marker.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0, pid != getpid(),
                matches(rest[rest.index(after: dash)...])
            else { return false }
            return kill(pid, 0) != 0 && errno == ESRCH
        }.sorted()
    }

    /// The names in `folder` under this scheme, of any process but this one, that `matches` accepts given what follows
    /// `<pid>-`: for a caller that tells a live one from an abandoned one by its lock, not by the process id.
    package static func others(in folder: FilePath, matching matches: (Substring) -> Bool) throws -> [String] {
        try OutputFolder.names(in: folder).filter { name in
            guard name.hasPrefix(marker) else { return false }
            let rest = name.dropFirst(marker.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0, pid != getpid() else {
                return false
            }
            return matches(rest[rest.index(after: dash)...])
        }.sorted()
    }

    /// What follows `<pid>-` in `beside(finalName)`: the digest of the final name.
    package static func digest(of finalName: String) -> String {
        String(beside(finalName).dropFirst(processPrefix.count))
    }

    /// `digest(of:)` of a final name given as its bytes (one that may not be UTF-8).
    package static func digest(bytes finalName: [UInt8]) -> String {
        String(beside(bytes: finalName).dropFirst(processPrefix.count))
    }

    /// The temporary path beside `path`, in the same folder: for "out/App.ipa", "out/.odrpack-tmp-<pid>-<digest>",
    /// then `suffix` ("-replaced"), which says what the temporary is for.
    package static func path(beside path: FilePath, suffix: String = "") -> FilePath {
        let name = path.lastComponent?.bytes ?? []
        return path.removingLastComponent().appending(FilePath.Component(beside(bytes: name) + suffix)!)
    }

    /// `path(beside:)` of a path kept as text: SpillFile.swift (the performance work's) still calls it; it goes once
    /// that moves to `FilePath`.
    package static func path(beside path: String) -> String { self.path(beside: FilePath(path)).string }
}
