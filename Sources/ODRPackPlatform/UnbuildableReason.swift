/// Why the project cannot be written as asked, though it breaks no rule of the store, as a fact of
/// `ODRPackError.unbuildable` (docs/build-output.md): the paths as shown (the output folder as the user wrote it), the
/// packs, the names. Each is exit 2, with what to move or rename; the sentence is made from the facts in one place,
/// `description`.
package enum UnbuildableReason: Sendable, Equatable, CustomStringConvertible {
    /// A zip entry name (its bytes) is over the 65,535 bytes a zip name field holds.
    case entryNameTooLong([UInt8])
    /// A signed pack's folder holds this path, a link, pipe or device.
    case notFileOrFolder(FilePath)
    /// A resource (its path in the pack) of this pack is inside `_CodeSignature`, which the sign command writes.
    case insideSignatureFolder(String, pack: String)
    /// Two packs (by short name, the first one seen first) have this one asset pack id.
    case sameAssetPackID(String, String, id: String)
    /// A file or folder (as shown) odrpack did not write is where the build must write; the output folder as given.
    case inTheWay(String, outputDirectory: String)
    /// The output folder (as given) holds a build of another format: its kind with an article ("a Background
    /// Assets") and the format its build manifest names.
    case otherFormat(outputDirectory: String, kind: String, format: String)
    /// The output folder (as given) is resources-root.
    case outputIsResourcesRoot(outputDirectory: String)
    /// Resources-root (as given) is the folder the build writes its packs in (as shown), or inside it.
    case resourcesRootInPacksFolder(root: String, packsFolder: String)
    /// A format's folder (as shown) in the output folder is a symbolic link.
    case folderIsLink(String)
    /// The folder (as shown) the build writes its packs in is not a folder.
    case notAFolder(String)

    package var description: String {
        switch self {
        case .entryNameTooLong(let name):
            return """
                '\(FilePath.shownText(of: name.prefix(80)))...' is \(name.count) bytes long: a zip entry name holds at \
                most 65,535; shorten the paths in the pack (or what the sign command adds)
                """
        case .notFileOrFolder(let path):
            return "'\(path.text)' is neither a file nor a folder: a pack holds only those"
        case .insideSignatureFolder(let file, let pack):
            return """
                '\(file)' in pack '\(pack)' is inside '_CodeSignature', which the sign command writes: move or \
                exclude it, or build without --sign-command
                """
        case .sameAssetPackID(let first, let second, let id):
            return """
                packs '\(first)' and '\(second)' have the same asset pack id '\(id)' (their tags differ only in \
                characters Background Assets cannot use): rename one of the tags
                """
        case .inTheWay(let path, let outputDirectory):
            return """
                '\(path)' is in the way: the build must write there, and odrpack did not write it (the build manifest \
                in '\(outputDirectory)' does not name it); move it away, or build into another folder
                """
        case .otherFormat(let outputDirectory, let kind, let format):
            return """
                '\(outputDirectory)' holds \(kind) build (its \(BuildManifestFailure.fileName) says format \
                '\(format)'): one folder holds one format, so Background Assets versions never restart; build into \
                another folder
                """
        case .outputIsResourcesRoot(let outputDirectory):
            return """
                the output folder '\(outputDirectory)' is resources-root: its packs would become resources; write the \
                build to another folder
                """
        case .resourcesRootInPacksFolder(let root, let packsFolder):
            return """
                resources-root '\(root)' is '\(packsFolder)' or inside it, the folder the build writes its packs in: \
                the build would replace your resources; write the build to another folder
                """
        case .folderIsLink(let folder):
            return """
                '\(folder)' is a symbolic link: a build writes and removes files only inside its own output folder; \
                replace the link with a folder, or build into another folder
                """
        case .notAFolder(let folder):
            return """
                '\(folder)' is not a folder, and the build must write its packs there: odrpack did not write it, so \
                it leaves it alone; move it away, or build into another folder
                """
        }
    }
}
