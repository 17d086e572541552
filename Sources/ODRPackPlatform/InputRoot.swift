import Foundation

/// The one folder a command may read its inputs from (`--input-root`, docs/commands.md#input-root). A build system
/// keys an action's cache entry on the files it declared and hands the tool only those (Bazel's rules stage them
/// into one folder, docs/bazel.md#hermetic-inputs): a file read from anywhere else would change the output without
/// changing the key. So every input path is compared with its symbolic links resolved, and no spelling of a path
/// (`..`, an absolute path, a link) leads out of the folder unnoticed.
package struct InputRoot: Sendable, Equatable {
    /// The folder as the command line named it, for messages.
    package let given: String
    /// The folder with its links resolved: what every resolved input path must lie inside.
    package let path: FilePath

    /// - Throws: `ODRPackError.usage` for an empty path or one holding a NUL, `.io` when the folder cannot be
    ///   resolved (it does not exist), `.inputRoot` when it is no folder.
    package init(_ given: String) throws {
        guard !given.isEmpty, let checked = FilePath(checking: given) else {
            throw ODRPackError.usage("--input-root is empty or holds a NUL: name the folder the inputs are in")
        }
        let real: FilePath
        switch LocalFileSystem().resolved(checked) {
        case .success(let resolved): real = resolved
        case .failure(let error): throw ODRPackError.io(.readKind("--input-root"), path: checked, error)
        }
        guard SystemCall.status(real)?.kind == .directory else {
            throw ODRPackError.inputRoot(.notAFolder(given))
        }
        self.given = given
        self.path = real
    }

    /// Where `path` leads, absolute, with every link resolved: `realpath` when it exists, else its nearest existing
    /// folder resolved and the rest of it joined lexically (a missing file names no other place).
    /// Never folded lexically first: `link/..` is the folder above where the link leads, not the link's own folder.
    package static func resolved(_ path: FilePath) -> FilePath {
        let absolute = (try? LocalFileSystem().absolute(path).get()) ?? path
        var existing = absolute
        var rest: [FilePath.Component] = []
        while true {
            if case .success(let real) = LocalFileSystem().resolved(existing) {
                return rest.reversed().reduce(real) { $0.appending($1) }.normalized
            }
            guard let last = existing.lastComponent, existing.removeLastComponent() else {
                return absolute.normalized
            }
            rest.append(last)
        }
    }

    /// Fails unless `input` leads inside the folder once its links are resolved.
    /// - Parameters:
    ///   - what: what the path is, for the message ("resources-root '../..'", "the app").
    ///   - fix: how to bring it inside.
    /// - Throws: `ODRPackError.inputRoot` naming where `input` leads.
    package func check(_ input: FilePath, _ what: String, fix: String) throws {
        let leads = Self.resolved(input)
        guard leads.isInside(path) else {
            throw ODRPackError.inputRoot(.leadsOutside(what: what, leads: leads, root: given, fix: fix))
        }
    }

    /// Fails unless every symbolic link under `folder` leads inside `folder`: a link with an absolute target is
    /// refused wherever it points (it names a place on the machine that made it), and a relative one must stay inside
    /// once every link on its way is resolved. Links are checked, never followed into: what they lead to inside is
    /// checked where it lies.
    /// - Parameter what: what the folder is, for the message ("the app").
    /// - Throws: `ODRPackError.inputRoot` naming the link and its target; `ODRPackError` when a folder cannot be
    ///   listed.
    package func checkLinks(under folder: FilePath, _ what: String) throws {
        let realFolder = Self.resolved(folder)
        try FolderWalk.walk(under: folder) { entry in
            guard entry.status.kind == .symbolicLink else { return }
            let link = folder.joined(entry.path)
            let target: String
            do {
                target = try FileManager.default.destinationOfSymbolicLink(atPath: link.string)
            } catch {
                throw ODRPackError.file(.linkUnreadable(link, reason: error.localizedDescription))
            }
            let targetPath = FilePath(target)
            let leads = targetPath.isAbsolute ? targetPath : Self.resolved(link.parent.pushing(targetPath))
            guard !targetPath.isAbsolute, leads.isInside(realFolder), leads.isInside(path) else {
                throw ODRPackError.inputRoot(
                    .linkLeadsOutside(
                        what: what, link: entry.path, target: target, leads: targetPath.isAbsolute ? nil : leads,
                        root: given))
            }
        }
    }
}
