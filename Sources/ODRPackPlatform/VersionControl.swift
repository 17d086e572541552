/// The folders version-control systems keep their data in: Xcode's resource copy drops them at any depth, so odrpack
/// never packs them, `init` and `import-xcode` never name them, and the scan does not enter `.git`
/// (docs/manifest.md). The one list of their names; every module that meets one asks it.
package enum VersionControl {
    /// Git's folder (in a submodule, a file that holds a local path): the scan records it but never enters it, and
    /// it marks a repository's root, where the search for odrpack.yml stops.
    package static let git = ".git"
    /// Every version-control folder name, `git` first.
    package static let folderNames = [git, ".svn", ".hg", ".bzr", "CVS"]

    /// Whether `name` (one path component) is a version-control folder's name, compared by bytes.
    package static func isFolderName(_ name: some StringProtocol) -> Bool {
        let bytes = name.utf8
        return bytes.count <= 4 && folderNames.contains { $0.utf8.elementsEqual(bytes) }
    }

    /// Whether `name`, a name's bytes as a folder listing gives them, is `git`.
    package static func isGit(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        name.elementsEqual(git.utf8)
    }

    /// Whether any component of `path` (text split at "/") is a version-control folder's name.
    package static func containsFolderName(_ path: String) -> Bool {
        path.slashSeparated().contains { isFolderName($0) }
    }
}
