import Foundation
import ODRPackPlatform

/// Finds the manifest a command reads when no MANIFEST is given (docs/commands.md#scripts): `odrpack.yml` in the
/// current folder, then in each parent up to the first folder that holds `.git` (or `/`), as cargo and git look up.
/// The path it returns is relative to the current folder (`../../odrpack.yml`), so every path printed from the
/// manifest stays relative to where the command runs, and the manifest's own relative paths stay relative to its
/// folder, as they are for a path given on the command line.
package struct ManifestLocator {
    package static let fileName = "odrpack.yml"

    /// The folder the search starts in, absolute.
    let start: FilePath

    package init(currentFolder: String = FileManager.default.currentDirectoryPath) {
        // Absolute (a relative folder is relative to the current one), `.` and `..` folded.
        start =
            FilePath(FileManager.default.currentDirectoryPath).pushing(FilePath(currentFolder)).lexicallyNormalized()
    }

    /// The manifest to read: `given` as is, else the one found.
    /// - Throws: `ODRPackError.unusableInput` (exit 2) naming the folders searched when none holds `odrpack.yml`.
    package func manifestPath(given: String?) throws -> String {
        if let given { return given }
        return try find()
    }

    package func find() throws -> String {
        var folder = start
        var searched: [FilePath] = []
        var levels = 0
        while true {
            searched.append(folder)
            let candidate = folder.joined(Self.fileName)
            if SystemCall.status(candidate, followingLinks: true)?.kind == .regular {
                return levels == 0 ? Self.fileName : String(repeating: "../", count: levels) + Self.fileName
            }
            let boundary = SystemCall.status(folder.joined(".git"), followingLinks: false) != nil
            if boundary || folder == "/" { break }
            folder = folder.parent
            levels += 1
        }
        throw ODRPackError.unusableInput(notFoundMessage(searched: searched, stoppedAt: folder))
    }

    /// What was searched, and the fix: `odrpack init` only when no folder on the way up holds a manifest at all, not
    /// even past the repository's root (where it belongs to another project, or the repository is nested).
    func notFoundMessage(searched: [FilePath], stoppedAt folder: FilePath) -> String {
        let names = searched.map { "'\($0.text)'" }.joined(separator: ", ")
        var message = "no \(Self.fileName) in \(names)"
        if folder != "/" { message += " (the search stops at '\(folder.text)', which holds .git)" }
        if let beyond = manifestBeyond(folder)?.text {
            message +=
                ": '\(beyond)' lies outside this repository; pass its path as MANIFEST, or run from a folder inside it"
        } else if searched.contains(where: { Self.holdsManifestOfOtherName($0) }) {
            message += ": pass the manifest's path as MANIFEST"
        } else {
            message += ": run `odrpack init` to write one, or pass the manifest's path as MANIFEST"
        }
        return message
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
