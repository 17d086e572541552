import Foundation
import ODRPackPlatform

/// Walks resources-root and gives every regular file its tags (SPEC section 3, steps 1 to 3): a pure function of
/// the manifest and a `ResourceFileSystem` (one scan of metadata, plus the first bytes of tagged files to catch
/// executable code), so that every file-system call, and every way one can fail, is at that edge.
struct ResourceResolver {
    package let manifest: TagManifest
    /// Which of the tagged files (sorted by path) a previous build already checked with the same metadata:
    /// their first bytes are not read again. Asked only after the walk, so the previous build's cache can load meanwhile.
    package let alreadyChecked: ([ResolvedResource]) -> [Bool]
    /// A scan made earlier (by the build's up-to-date check); used when it is of resources-root.
    let tree: FileTree?
    let fileSystem: any ResourceFileSystem
    /// A file name that marks a folder as output, never resources (a build folder under resources-root holds one).
    let outputMarker: String?

    init(manifest: TagManifest, tree: FileTree? = nil, fileSystem: any ResourceFileSystem = LocalFileSystem(),
                outputMarker: String? = nil,
                alreadyChecked: @escaping ([ResolvedResource]) -> [Bool] = { $0.map { _ in false } }) {
        self.manifest = manifest
        self.tree = tree
        self.fileSystem = fileSystem
        self.outputMarker = outputMarker
        self.alreadyChecked = alreadyChecked
    }

    package func resolve() -> Resolution {
        var walk = Walk(manifest: manifest, fileSystem: fileSystem, outputMarker: outputMarker, alreadyChecked: alreadyChecked)
        walk.run(tree: tree)
        return walk.finish()
    }
}

private struct Walk {
    let manifest: TagManifest
    let fileSystem: any ResourceFileSystem
    var diagnostics: [Diagnostic] = []
    var rootPath = ""
    var resources: [ResolvedResource] = []
    var appBundleFiles = 0
    var appBundleSize: Int64 = 0

    /// Path entries by normalized path.
    var pathEntries: [String: [Int]] = [:]
    var globEntries: [(entry: Int, pattern: GlobPattern)] = []
    var excludes: [GlobPattern] = []
    /// Each entry's sorted tags.
    var entryTags: [[String]]
    /// How many files each entry tagged.
    var matchCounts: [Int]
    var visitedEntryPaths = Set<String>()
    /// Tag set per sorted list of contributing entries.
    var tagSetCache: [[Int]: [String]] = [:]
    var invalidNames: [(path: String, firstEntry: Int?)] = []
    var fingerprint: String?

    /// Every folder that holds a path entry at some depth: elsewhere no name needs looking up.
    var entryFolders: Set<String> = []

    let alreadyChecked: ([ResolvedResource]) -> [Bool]
    let outputMarker: String?

    init(manifest: TagManifest, fileSystem: any ResourceFileSystem, outputMarker: String?,
         alreadyChecked: @escaping ([ResolvedResource]) -> [Bool]) {
        self.manifest = manifest
        self.fileSystem = fileSystem
        self.outputMarker = outputMarker
        self.alreadyChecked = alreadyChecked
        entryTags = manifest.entries.map { Array(Set($0.tags.map(\.value))).sorted() }
        matchCounts = Array(repeating: 0, count: manifest.entries.count)
        for (index, entry) in manifest.entries.enumerated() {
            switch entry.selector {
            case let .path(path):
                pathEntries[path, default: []].append(index)
                var folder = Substring(path)
                while let slash = folder.lastIndex(of: "/") {
                    folder = folder[..<slash]
                    entryFolders.insert(String(folder))
                }
                if !path.isEmpty { entryFolders.insert("") }
            case let .glob(glob): if let pattern = GlobPattern(glob) { globEntries.append((index, pattern)) }
            }
        }
        excludes = manifest.exclude.compactMap { GlobPattern($0.value) }
    }

    func entryLocation(_ index: Int?) -> SourceLocation? {
        guard let index else { return nil }
        return manifest.entries[index].selectorLocation
    }

    mutating func run(tree: FileTree?) {
        let rootURL = manifest.resourcesRootURL
        let rootLocation = manifest.resourcesRoot.location ?? manifest.keyLocations["resources-root"]
        guard case let .success(real) = fileSystem.resolvedPath(rootURL.path) else {
            diagnostics.append(.error(.pathNotFound,
                                      "resources-root '\(manifest.resourcesRoot.value)' does not exist (looked for \(rootURL.path)): create it or fix 'resources-root'",
                                      at: rootLocation, subject: manifest.resourcesRoot.value))
            return
        }
        rootPath = real
        guard case let .success(root) = fileSystem.status(rootPath, followingLinks: true), root.kind == .directory else {
            diagnostics.append(.error(.pathNotFound, "resources-root '\(manifest.resourcesRoot.value)' is not a folder",
                                      at: rootLocation, subject: manifest.resourcesRoot.value))
            return
        }
        let scanned = (tree.flatMap { $0.path == rootPath ? $0 : nil } ?? fileSystem.scan(rootPath)).sortedByName()
        fingerprint = scanned.fingerprint
        walkDirectory(scanned, 0, absolute: rootPath, relative: "", components: [], inherited: pathEntries[""] ?? [],
                      ancestors: [DirectoryID(root.stamp)])
        if pathEntries[""] != nil { visitedEntryPaths.insert("") }
    }

    struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ stamp: FileStamp) {
            device = stamp.device
            inode = stamp.inode
        }
    }

    mutating func walkDirectory(_ tree: FileTree, _ index: Int, absolute: String, relative: String, components: [String],
                                inherited: [Int], ancestors: Set<DirectoryID>) {
        let directory = tree.directories[index]
        guard directory.error == 0 else {
            let reason = SystemError(directory.error).reason
            diagnostics.append(.error(.fileUnreadable, "cannot read folder '\(relative.isEmpty ? "." : relative)': \(reason)",
                                      subject: relative.isEmpty ? "." : relative))
            return
        }
        let candidateGlobs = globEntries.indices.filter { globEntries[$0].pattern.couldMatch(filesIn: components) }
        let candidateExcludes = excludes.filter { $0.couldMatch(filesIn: components) }
        let mayHoldEntries = entryFolders.contains(relative)
        let prefix = relative.isEmpty ? "" : relative + "/"
        // The tags every file here gets when no entry or glob of its own adds more.
        let inheritedTags = inherited.isEmpty ? [] : tagSet(inherited)

        for position in 0..<directory.count {
            let entry = directory.entries[position]
            guard entry.mode != 0 else {
                // Vanished since the folder was listed: no longer a file of the project. Anything else is a problem.
                if entry.error != ENOENT {
                    let path = prefix + String(decoding: directory.name(position), as: UTF8.self)
                    diagnostics.append(.error(.fileUnreadable, "cannot read '\(path)': \(SystemError(entry.error).reason): fix its permissions or exclude it",
                                              subject: path))
                }
                continue
            }
            let bytes = directory.name(position)
            var name = String(decoding: bytes, as: UTF8.self)
            // Decoding repairs invalid UTF-8, which changes the bytes.
            let validName = name.withUTF8 { decoded in bytes.withUnsafeBufferPointer { decoded.elementsEqual($0) } }
            let childRelative = prefix + name
            var kind = FileStatus.Kind(mode: entry.mode)
            var stamp = entry.stamp
            var linkedTree: FileTree?
            if kind == .symbolicLink {
                let childAbsolute = absolute + "/" + name
                let targetPath: String
                switch fileSystem.resolvedPath(childAbsolute) {
                case let .success(path):
                    targetPath = path
                case let .failure(error):
                    diagnostics.append(.error(.fileUnreadable, error.isLoop
                        ? "symbolic link '\(childRelative)' is a loop: remove it or exclude it"
                        : "symbolic link '\(childRelative)' is broken (its target does not exist): remove it or fix its target",
                        subject: childRelative))
                    continue
                }
                guard RelativePath.absolutePath(targetPath, isInside: rootPath) else {
                    if !isExcluded(name: name, path: childRelative, candidates: candidateExcludes) {
                        diagnostics.append(.error(.pathOutsideRoot,
                                                  "symbolic link '\(childRelative)' points outside resources-root (to \(targetPath)): copy the file in or remove the link",
                                                  subject: childRelative))
                    }
                    continue
                }
                let target: FileStatus
                switch fileSystem.status(childAbsolute, followingLinks: true) {
                case let .success(status):
                    target = status
                case let .failure(error):
                    diagnostics.append(.error(.fileUnreadable, "cannot read '\(childRelative)' through its link: \(error.reason)",
                                              subject: childRelative))
                    continue
                }
                kind = target.kind
                stamp = target.stamp
                if kind == .directory && name != ".git" && !ancestors.contains(DirectoryID(stamp)) {
                    linkedTree = fileSystem.scan(childAbsolute).sortedByName()
                }
            }
            if kind == .directory {
                if name == ".git" { continue }
                let id = DirectoryID(stamp)
                if ancestors.contains(id) {
                    diagnostics.append(.error(.fileUnreadable,
                                              "symbolic link '\(childRelative)' leads back to a folder that contains it (a loop): remove it or exclude it",
                                              subject: childRelative))
                    continue
                }
                var childInherited = inherited
                if mayHoldEntries, let own = pathEntries[childRelative] {
                    childInherited = Array(Set(childInherited + own)).sorted()
                    visitedEntryPaths.insert(childRelative)
                }
                var childAncestors = ancestors
                childAncestors.insert(id)
                let (subtree, childIndex) = linkedTree.map { ($0, 0) } ?? (tree, entry.child)
                guard childIndex >= 0 else { continue }
                // An odrpack build folder (it holds the build's lock file) is output, never a resource: a build into
                // a folder under resources-root must not pack its own packs.
                if let outputMarker, subtree.directories[childIndex].contains(name: outputMarker) { continue }
                walkDirectory(subtree, childIndex, absolute: absolute + "/" + name, relative: childRelative,
                              components: components + [name], inherited: childInherited, ancestors: childAncestors)
            } else if kind == .regular {
                addFile(name: name, relative: childRelative, stamp: stamp, validName: validName, inherited: inherited,
                        inheritedTags: inheritedTags, mayBeEntry: mayHoldEntries, candidateGlobs: candidateGlobs,
                        candidateExcludes: candidateExcludes)
            }
        }
    }

    func isExcluded(name: String, path: String, candidates: [GlobPattern]) -> Bool {
        if name == ".DS_Store" { return true }
        if candidates.isEmpty { return false }
        let bytes = Array(path.utf8)
        return candidates.contains { $0.matches(bytes) }
    }

    mutating func addFile(name: String, relative: String, stamp: FileStamp, validName: Bool, inherited: [Int],
                          inheritedTags: [String], mayBeEntry: Bool, candidateGlobs: [Int], candidateExcludes: [GlobPattern]) {
        let own = mayBeEntry ? pathEntries[relative] : nil
        if isExcluded(name: name, path: relative, candidates: candidateExcludes) {
            if own != nil { visitedEntryPaths.insert(relative) }
            return
        }
        var contributing = inherited
        if let own {
            contributing += own
            visitedEntryPaths.insert(relative)
        }
        if !candidateGlobs.isEmpty {
            let bytes = Array(relative.utf8)
            for index in candidateGlobs where globEntries[index].pattern.matches(bytes) {
                contributing.append(globEntries[index].entry)
            }
        }
        let size = stamp.size
        if contributing.isEmpty {
            appBundleFiles += 1
            appBundleSize = [appBundleSize, size].saturatingSum
            return
        }
        let tags: [String]
        if contributing.count == inherited.count {
            tags = inheritedTags
        } else {
            contributing = Array(Set(contributing)).sorted()
            tags = tagSet(contributing)
        }
        for entry in contributing { matchCounts[entry] += 1 }
        if !validName { invalidNames.append((relative, contributing.first)) }
        resources.append(ResolvedResource(path: relative, size: size, stamp: stamp, tags: tags,
                                          firstEntry: contributing.first))
    }

    /// The sorted tags of a sorted list of contributing entries.
    mutating func tagSet(_ contributing: [Int]) -> [String] {
        if let cached = tagSetCache[contributing] { return cached }
        let tags = Array(Set(contributing.flatMap { entryTags[$0] })).sorted()
        tagSetCache[contributing] = tags
        return tags
    }

    mutating func finish() -> Resolution {
        // The scan orders folders so that the walk lists paths sorted; only links to folders can break that.
        if !zip(resources, resources.dropFirst()).allSatisfy({ $0.path.precedesByCodePoint($1.path) }) {
            let order = resources.indices.sorted { resources[$0].path.precedesByCodePoint(resources[$1].path) }
            resources = order.map { resources[$0] }
        }
        if !rootPath.isEmpty {
            checkEntries()
            for (path, entry) in invalidNames {
                diagnostics.append(.error(.fileUnreadable,
                                          "file name '\(path)' is not valid UTF-8, so it cannot be stored in a pack: rename the file",
                                          at: entryLocation(entry), subject: path))
            }
            let unnamable = Set(invalidNames.map(\.path))
            let checked = alreadyChecked(resources)
            let unchecked = resources.indices.filter { !checked[$0] && !unnamable.contains(resources[$0].path) }.map { resources[$0] }
            diagnostics += ExecutableContentCheck(rootPath: rootPath, fileSystem: fileSystem).check(unchecked) { entryLocation($0.firstEntry) }
        }
        return Resolution(rootPath: rootPath, resources: resources, appBundleFiles: appBundleFiles,
                          appBundleSize: appBundleSize, diagnostics: diagnostics, fingerprint: fingerprint)
    }

    mutating func checkEntries() {
        for (index, entry) in manifest.entries.enumerated() {
            let location = entry.selectorLocation
            switch entry.selector {
            case let .path(path):
                if !visitedEntryPaths.contains(path) {
                    let absolute = path.isEmpty ? rootPath : rootPath + "/" + path
                    guard case let .success(status) = fileSystem.status(absolute, followingLinks: false) else {
                        diagnostics.append(.error(.pathNotFound,
                                                  "path '\(path)' does not exist under resources-root: fix the path or remove the entry",
                                                  at: location, subject: path))
                        continue
                    }
                    if status.kind != .symbolicLink {
                        diagnostics.append(.warning(.entryMatchesNothing,
                                                    "path '\(path)' names no packable file (it is excluded or not a regular file)",
                                                    at: location, subject: path))
                    }
                } else if matchCounts[index] == 0 {
                    diagnostics.append(.warning(.entryMatchesNothing,
                                                "folder '\(path.isEmpty ? "." : path)' holds no files to tag: add files or remove the entry",
                                                at: location, subject: path))
                }
            case let .glob(glob):
                if matchCounts[index] == 0 {
                    diagnostics.append(.warning(.entryMatchesNothing,
                                                "glob '\(glob)' matches no file: check the pattern (paths are relative to resources-root)",
                                                at: location, subject: glob))
                }
            }
        }
    }
}
