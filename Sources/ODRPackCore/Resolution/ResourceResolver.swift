import Foundation
import ODRPackFormats
import ODRPackPlatform

/// Walks resources-root and gives every regular file its tags (docs/manifest.md#resolution, steps 1 to 3): a pure function of
/// the manifest and a `ResourceFileSystem` (one scan of metadata, plus the first bytes of tagged files to catch
/// executable code), so that every file-system call, and every way one can fail, is at that edge.
struct ResourceResolver {
    let manifest: TagManifest
    /// Which of the tagged files (sorted by path) a previous build already checked with the same metadata:
    /// their first bytes are not read again. Asked only after the walk, so the previous build's cache can load meanwhile.
    let alreadyChecked: ([ResolvedResource]) -> [Bool]
    /// A scan made earlier (by the build's up-to-date check); used when it is of resources-root, and taken from the
    /// hand-off so that the walk alone holds it and frees each folder as it goes.
    let tree: FileTreeHandOff?
    let fileSystem: any ResourceFileSystem
    /// A file name that marks a folder as output, never resources (a build folder under resources-root holds one).
    let outputMarker: String?
    /// Whether the resolution lists the untagged files (`Resolution.untaggedFiles`).
    var listsUntagged = false

    init(
        manifest: TagManifest, tree: FileTreeHandOff? = nil, fileSystem: any ResourceFileSystem = LocalFileSystem(),
        outputMarker: String? = nil,
        alreadyChecked: @escaping ([ResolvedResource]) -> [Bool] = { $0.map { _ in false } }
    ) {
        self.manifest = manifest
        self.tree = tree
        self.fileSystem = fileSystem
        self.outputMarker = outputMarker
        self.alreadyChecked = alreadyChecked
    }

    func resolve() -> Resolution {
        var walk = Walk(
            manifest: manifest, fileSystem: fileSystem, outputMarker: outputMarker, alreadyChecked: alreadyChecked)
        if listsUntagged { walk.untaggedFiles = [] }
        walk.run(tree: tree?.take())
        return walk.finish()
    }
}

private struct Walk {
    let manifest: TagManifest
    let fileSystem: any ResourceFileSystem
    var diagnostics: [Diagnostic] = []
    var rootPath = ""
    var resources: [ResolvedResource] = []
    /// The bytes of every resource's path (and source, when `into` moved it), appended as the walk finds them.
    let arena = PathArena()
    /// The folder whose files are being added, and its number in `arena`.
    var currentFolder: (path: String, number: UInt32)?
    var appBundleFiles = 0
    var appBundleSize: Int64 = 0
    var appBundleSizeOverflows = false
    /// With `into` and `untagged: count`: the files that stay in the app at their paths, which no tagged file's
    /// destination may take (docs/manifest.md#destinations).
    var untaggedPaths = Set<PathKey>()
    var untaggedFiles: [String]?

    /// Path entries by normalized path.
    var pathEntries: [PathKey: [Int]] = [:]
    var globEntries: [(entry: Int, pattern: GlobPattern)] = []
    var excludes: [GlobPattern] = []
    /// Each entry's sorted tags.
    var entryTags: [[String]]
    /// How many files each entry tagged.
    var matchCounts: [Int]
    var visitedEntryPaths = Set<PathKey>()
    /// Tag set per sorted list of contributing entries.
    var tagSetCache: [[Int]: [String]] = [:]
    var invalidNames: [(path: String, firstEntry: Int?)] = []
    var fingerprint: String?
    /// Entries taken from the tree since its freed memory was last given back (`SystemCall.releaseFreedMemory`).
    var entriesTaken = 0

    /// Which folders entries reach; its `entryFolders` (those holding a path entry at some depth) are where names
    /// need looking up.
    let reach: EntryReach
    /// Whether an entry places files elsewhere (`into`): only then do destinations differ from paths.
    let hasInto: Bool
    /// `untagged: ignore`: files no entry names are not resources, and folders no entry reaches are not scanned.
    let ignoresUntagged: Bool
    /// Entries already reported with an error of their own, which `checkEntries` leaves alone.
    var settledEntries = Set<Int>()
    /// Each real folder walked, by device and inode, with the first path that reached it (docs/manifest.md#files-and-links).
    var walkedFolders: [DirectoryID: String] = [:]

    let alreadyChecked: ([ResolvedResource]) -> [Bool]
    let outputMarker: String?

    init(
        manifest: TagManifest, fileSystem: any ResourceFileSystem, outputMarker: String?,
        alreadyChecked: @escaping ([ResolvedResource]) -> [Bool]
    ) {
        self.manifest = manifest
        self.fileSystem = fileSystem
        self.outputMarker = outputMarker
        self.alreadyChecked = alreadyChecked
        entryTags = manifest.entries.map { Array(Set($0.tags.map(\.value))).sorted() }
        hasInto = manifest.entries.contains { $0.into != nil }
        reach = EntryReach(manifest: manifest)
        ignoresUntagged = manifest.untagged == .ignore
        matchCounts = Array(repeating: 0, count: manifest.entries.count)
        for (index, entry) in manifest.entries.enumerated() {
            switch entry.selector {
            case .path(let path):
                pathEntries[PathKey(path), default: []].append(index)
            case .glob(let glob): if let pattern = GlobPattern(glob) { globEntries.append((index, pattern)) }
            }
        }
        excludes = manifest.exclude.compactMap { GlobPattern($0.value) }
    }

    func entryLocation(_ index: Int?) -> SourceLocation? {
        guard let index else { return nil }
        return manifest.entries[index].selectorLocation
    }

    mutating func run(tree: consuming FileTree?) {
        let rootURL = manifest.resourcesRootURL
        let rootLocation = manifest.resourcesRoot.location ?? manifest.keyLocations["resources-root"]
        guard case .success(let real) = fileSystem.resolvedPath(rootURL.path) else {
            diagnostics.append(
                .error(
                    .pathNotFound,
                    """
                    resources-root '\(manifest.resourcesRoot.value)' does not exist (looked for \(rootURL.path)): \
                    create it or fix 'resources-root'
                    """,
                    at: rootLocation, subject: manifest.resourcesRoot.value))
            return
        }
        rootPath = real
        guard case .success(let root) = fileSystem.status(rootPath, followingLinks: true), root.kind == .directory
        else {
            diagnostics.append(
                .error(
                    .pathNotFound, "resources-root '\(manifest.resourcesRoot.value)' is not a folder",
                    at: rootLocation, subject: manifest.resourcesRoot.value))
            return
        }
        let reach = self.reach
        // Taken out of the parameter, so that `scanned` alone holds the tree and each folder taken frees its entries.
        var scanned: FileTree
        if let given = tree.take(), given.path.hasSameBytes(as: rootPath) {
            scanned = given
        } else {
            scanned =
                ignoresUntagged
                ? fileSystem.scan(rootPath, descending: { reach.mayHoldResources(Array($0)) })
                : fileSystem.scan(rootPath)
        }
        scanned.sortByName()
        fingerprint = scanned.fingerprint
        // Room for every regular file at once: growing by doubling would hold up to three times the final array.
        resources.reserveCapacity(scanned.regularFileCount)
        walkedFolders[DirectoryID(root.stamp)] = ""
        walkDirectory(
            &scanned, 0, absolute: rootPath, relative: "", components: [], inherited: pathEntries[PathKey("")] ?? [],
            ancestors: [DirectoryID(root.stamp)])
        if pathEntries[PathKey("")] != nil { visitedEntryPaths.insert(PathKey("")) }
    }

    struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ stamp: FileStamp) {
            device = stamp.device
            inode = stamp.inode
        }
    }

    /// Walks one folder of `tree`, then its subfolders, emptying each folder of `tree` as it takes it: a folder is
    /// walked once, and the tree's entries are freed while the resources they become are made (at a million files
    /// the two would otherwise be held together, some 70 MB each).
    mutating func walkDirectory(
        _ tree: inout FileTree, _ index: Int, absolute: String, relative: String, components: [String],
        inherited: [Int], ancestors: Set<DirectoryID>
    ) {
        let directory = tree.takeDirectory(index)
        entriesTaken += directory.count
        if entriesTaken >= 1 << 16 {
            SystemCall.releaseFreedMemory()
            entriesTaken = 0
        }
        guard directory.error == 0 else {
            let reason = SystemError(directory.error).reason
            let shown = relative.isEmpty ? "." : relative
            // A folder no entry reaches cannot change a pack (docs/manifest.md#untagged-files): a warning; ignored with `untagged: ignore`.
            if !inherited.isEmpty || relative.isEmpty || reach.mayHoldResources(relative) {
                diagnostics.append(.error(.fileUnreadable, "cannot read folder '\(shown)': \(reason)", subject: shown))
            } else if !ignoresUntagged {
                diagnostics.append(
                    .warning(
                        .fileUnreadable,
                        """
                        cannot read folder '\(shown)': \(reason); no entry tags anything in it, so it stays out of \
                        every pack
                        """,
                        subject: shown))
            }
            return
        }
        let candidateGlobs = globEntries.indices.filter { globEntries[$0].pattern.couldMatch(filesIn: components) }
        let candidateExcludes = excludes.filter { $0.couldMatch(filesIn: components) }
        let mayHoldEntries = reach.entryFolders.contains(PathKey(relative))
        let prefix = relative.isEmpty ? "" : relative + "/"
        // The tags every file here gets when no entry or glob of its own adds more.
        let inheritedTags = inherited.isEmpty ? [] : tagSet(inherited)

        for position in 0..<directory.count {
            let entry = directory.entries[position]
            guard entry.mode != 0 else {
                // Vanished since the folder was listed: no longer a file of the project. Anything else is a problem.
                if entry.error != ENOENT {
                    let name = String(decoding: directory.name(position), as: UTF8.self)
                    report(
                        .fileUnreadable,
                        """
                        cannot read '\(prefix + name)': \(SystemError(entry.error).reason): fix its permissions or \
                        exclude it
                        """,
                        path: prefix + name, inherited: inherited,
                        globs: candidateGlobs)
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
                case .success(let path):
                    targetPath = path
                case .failure(let error):
                    report(
                        .fileUnreadable,
                        error.isLoop
                            ? "symbolic link '\(childRelative)' is a loop: remove it or exclude it"
                            : "symbolic link '\(childRelative)' is broken (its target does not exist): remove it or fix its target",
                        path: childRelative, inherited: inherited,
                        globs: candidateGlobs)
                    continue
                }
                guard RelativePath.absolutePath(targetPath, isInside: rootPath) else {
                    if !isExcluded(name: name, path: childRelative, candidates: candidateExcludes) {
                        report(
                            .pathOutsideRoot,
                            """
                            symbolic link '\(childRelative)' points outside resources-root (to \(targetPath)): copy \
                            the file in or remove the link
                            """,
                            path: childRelative, inherited: inherited,
                            globs: candidateGlobs)
                    }
                    continue
                }
                let target: FileStatus
                switch fileSystem.status(childAbsolute, followingLinks: true) {
                case .success(let status):
                    target = status
                case .failure(let error):
                    report(
                        .fileUnreadable, "cannot read '\(childRelative)' through its link: \(error.reason)",
                        path: childRelative, inherited: inherited,
                        globs: candidateGlobs)
                    continue
                }
                kind = target.kind
                stamp = target.stamp
                if kind == .directory && !Self.isVersionControl(name) && !ancestors.contains(DirectoryID(stamp))
                    && walkedFolders[DirectoryID(stamp)] == nil
                    && (!ignoresUntagged || !inherited.isEmpty || reach.mayHoldResources(childRelative))
                {
                    linkedTree = fileSystem.scan(childAbsolute).sortedByName()
                }
            }
            if kind == .directory {
                if Self.isVersionControl(name) { continue }
                let id = DirectoryID(stamp)
                if ancestors.contains(id) {
                    report(
                        .fileUnreadable,
                        """
                        symbolic link '\(childRelative)' leads back to a folder that contains it (a loop): remove it \
                        or exclude it
                        """,
                        path: childRelative, inherited: inherited,
                        globs: candidateGlobs)
                    continue
                }
                var childInherited = inherited
                if mayHoldEntries, let own = pathEntries[PathKey(childRelative)] {
                    childInherited = Array(Set(childInherited + own)).sorted()
                    visitedEntryPaths.insert(PathKey(childRelative))
                }
                if ignoresUntagged && childInherited.isEmpty && !reach.mayHoldResources(childRelative) {
                    continue
                }
                if let first = walkedFolders[id] {
                    // Each real folder once (docs/manifest.md#files-and-links): the walk goes in code-point order, so the first path is the least.
                    if !isExcluded(name: name, path: childRelative, candidates: candidateExcludes) {
                        diagnostics.append(
                            .warning(
                                .symlinkDuplicate,
                                """
                                '\(childRelative)' reaches the folder already reached as '\(first)' (through a \
                                symbolic link): its files are resources once, at '\(first)'; remove the link or \
                                exclude one of the paths
                                """,
                                at: entryLocation(childInherited.first), subject: childRelative))
                    }
                    continue
                }
                walkedFolders[id] = childRelative
                var childAncestors = ancestors
                childAncestors.insert(id)
                let childIndex = linkedTree == nil ? entry.child : 0
                guard childIndex >= 0 else { continue }
                // An odrpack build folder (it holds the build's lock file) is output, never a resource: a build into
                // a folder under resources-root must not pack its own packs (docs/manifest.md#files-and-links).
                if let outputMarker,
                    linkedTree?.directories[0].contains(name: outputMarker)
                        ?? tree.directories[childIndex].contains(name: outputMarker)
                {
                    skipBuildFolder(childRelative, inherited: childInherited)
                    continue
                }
                if var linked = linkedTree {
                    linkedTree = nil
                    walkDirectory(
                        &linked, 0, absolute: absolute + "/" + name, relative: childRelative,
                        components: components + [name], inherited: childInherited, ancestors: childAncestors)
                } else {
                    walkDirectory(
                        &tree, childIndex, absolute: absolute + "/" + name, relative: childRelative,
                        components: components + [name], inherited: childInherited, ancestors: childAncestors)
                }
            } else if kind == .regular {
                addFile(
                    name: name, relative: childRelative, folder: relative, stamp: stamp, validName: validName,
                    inherited: inherited,
                    inheritedTags: inheritedTags, mayBeEntry: mayHoldEntries, candidateGlobs: candidateGlobs,
                    candidateExcludes: candidateExcludes)
            }
        }
    }

    /// What Xcode's resource copy drops, at any depth (docs/manifest.md): version-control folders and files (a
    /// submodule's `.git` is a file that holds a local path). Compared by bytes.
    static let versionControlNames: Set<[UInt8]> = Set([".git", ".svn", ".hg", ".bzr", "CVS"].map { Array($0.utf8) })
    static let finderFile = Array(".DS_Store".utf8)

    static func isVersionControl(_ name: String) -> Bool {
        name.utf8.count <= 4 && versionControlNames.contains(Array(name.utf8))
    }

    func isExcluded(name: String, path: String, candidates: [GlobPattern]) -> Bool {
        if Self.isVersionControl(name) || name.utf8.elementsEqual(Self.finderFile) { return true }
        if candidates.isEmpty { return false }
        let bytes = Array(path.utf8)
        return candidates.contains { $0.matches(bytes) }
    }

    mutating func addFile(
        name: String, relative: String, folder: String, stamp: FileStamp, validName: Bool, inherited: [Int],
        inheritedTags: [String], mayBeEntry: Bool, candidateGlobs: [Int], candidateExcludes: [GlobPattern]
    ) {
        let own = mayBeEntry ? pathEntries[PathKey(relative)] : nil
        if isExcluded(name: name, path: relative, candidates: candidateExcludes) {
            if own != nil { visitedEntryPaths.insert(PathKey(relative)) }
            return
        }
        var contributing = inherited
        if let own {
            contributing += own
            visitedEntryPaths.insert(PathKey(relative))
        }
        if !candidateGlobs.isEmpty {
            let bytes = Array(relative.utf8)
            for index in candidateGlobs where globEntries[index].pattern.matches(bytes) {
                contributing.append(globEntries[index].entry)
            }
        }
        let size = stamp.size
        if contributing.isEmpty {
            if !ignoresUntagged {
                if hasInto { untaggedPaths.insert(PathKey(relative)) }
                appBundleFiles += 1
                let (sum, overflow) = appBundleSize.addingReportingOverflow(size)
                if overflow { appBundleSizeOverflows = true }
                appBundleSize = overflow ? Int64.max : sum
                untaggedFiles?.append(relative)
            }
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
        let placed = hasInto ? destination(of: relative, name: name, contributing: contributing) : nil
        var resource: ResolvedResource
        // A folder and its slash longer than its 4-byte number are stored once for all their files.
        if placed == nil && folder.utf8.count >= 4 {
            resource = ResolvedResource(
                name: name, folder: folderNumber(folder), in: arena, size: size, stamp: stamp, tags: tags,
                firstEntry: contributing.first)
        } else {
            resource = ResolvedResource(
                path: placed?.destination ?? relative, source: placed == nil ? nil : relative, in: arena, size: size,
                stamp: stamp, tags: tags, firstEntry: contributing.first)
        }
        if let placed { resource.placedBy = placed.entry }
        resources.append(resource)
    }

    /// The number in `arena` of a folder (relative to resources-root), stored when its first file is.
    mutating func folderNumber(_ folder: String) -> UInt32 {
        if let currentFolder, currentFolder.path.hasSameBytes(as: folder) { return currentFolder.number }
        let number = arena.addFolder(folder)
        currentFolder = (folder, number)
        return number
    }

    /// Gives a file the destination its entries' `into` say (docs/manifest.md#destinations): a named file at `D/<name>`, a file in a
    /// named folder at `D/<folder name>/<path below it>`, a glob's file at `D/<name>`. Two different ones are a
    /// `destination-conflict`; the first entry's is kept. Nil when no entry places the file.
    mutating func destination(of relative: String, name: String, contributing: [Int]) -> (
        entry: Int, destination: String
    )? {
        var chosen: (entry: Int, destination: String)?
        for index in contributing {
            let entry = manifest.entries[index]
            guard let into = entry.into else { continue }
            let placed: String
            switch entry.selector {
            case .path(let path) where path.hasSameBytes(as: relative):
                placed = Self.join(into, name)
            case .path(let path):
                // A folder keeps its name, as an Xcode folder reference does; the root entry "." has none.
                let below =
                    path.isEmpty
                    ? relative : String(decoding: relative.utf8.dropFirst(path.utf8.count + 1), as: UTF8.self)
                let folderName = path.isEmpty ? "" : String(path.slashSeparated().last!)
                placed = Self.join(Self.join(into, folderName), below)
            case .glob:
                placed = Self.join(into, name)
            }
            if let chosen {
                if !chosen.destination.hasSameBytes(as: placed) {
                    diagnostics.append(
                        .error(
                            .destinationConflict,
                            """
                            '\(relative)' is given two destinations: '\(chosen.destination)' by the entry at \
                            \(describe(chosen.entry)) and '\(placed)' by this one: Xcode stops with \"multiple \
                            commands produce\"; give both entries one 'into' or drop one
                            """,
                            at: entryLocation(index), subject: relative))
                }
            } else {
                chosen = (index, placed)
            }
        }
        return chosen
    }

    static func join(_ folder: String, _ rest: String) -> String {
        folder.isEmpty ? rest : rest.isEmpty ? folder : folder + "/" + rest
    }

    /// An entry as `file:line:column`, for messages that name two entries.
    func describe(_ entry: Int?) -> String {
        guard let entry, let location = entryLocation(entry) else { return "the manifest" }
        return "\(manifest.displayPath):\(location.line):\(location.column)"
    }

    /// A problem with one name under resources-root: an error when an entry tags or reaches it, else a warning, since
    /// it cannot change a pack (docs/manifest.md#untagged-files); nothing at all with `untagged: ignore`.
    mutating func report(
        _ code: DiagnosticCode, _ message: String, path: String, inherited: [Int], globs: [Int]
    ) {
        let bytes = Array(path.utf8)
        let tagged =
            !inherited.isEmpty || pathEntries[PathKey(path)] != nil
            || globs.contains { globEntries[$0].pattern.matches(bytes) } || reach.mayHoldResources(path)
        if tagged {
            diagnostics.append(
                .error(
                    code, message, at: entryLocation(inherited.first ?? pathEntries[PathKey(path)]?.first),
                    subject: path))
        } else if !ignoresUntagged {
            diagnostics.append(
                .warning(code, message + " (no entry tags it, so it stays out of every pack)", subject: path))
        }
    }

    /// A build folder under resources-root (docs/manifest.md#files-and-links): skipped with a warning, or an error when an entry names it or
    /// anything in it.
    mutating func skipBuildFolder(_ relative: String, inherited: [Int]) {
        let naming = manifest.entries.indices.filter { index in
            guard case .path(let path) = manifest.entries[index].selector else { return false }
            return path.hasSameBytes(as: relative) || path.utf8.starts(with: (relative + "/").utf8)
        }
        for index in naming {
            settledEntries.insert(index)
            diagnostics.append(
                .error(
                    .buildFolderSkipped,
                    """
                    '\(relative)' is an odrpack build folder (it holds \(outputMarker ?? "a build lock")), never \
                    resources: point the entry at the resources themselves, or build into a folder outside \
                    resources-root
                    """,
                    at: entryLocation(index), subject: relative))
        }
        if !naming.isEmpty {
            return
        } else if !ignoresUntagged || !inherited.isEmpty {
            diagnostics.append(
                .warning(
                    .buildFolderSkipped,
                    """
                    '\(relative)' is an odrpack build folder (it holds \(outputMarker ?? "a build lock")) and is \
                    skipped: its packs are never packed again; build into a folder outside resources-root to silence \
                    this
                    """,
                    subject: relative))
        }
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
        if !zip(resources, resources.dropFirst()).allSatisfy({ $0.pathPrecedes($1) }) {
            let order = resources.indices.sorted { resources[$0].pathPrecedes(resources[$1]) }
            resources = order.map { resources[$0] }
        }
        if hasInto { checkDestinations() }
        if !rootPath.isEmpty {
            checkEntries()
            for (path, entry) in invalidNames {
                diagnostics.append(
                    .error(
                        .fileUnreadable,
                        "file name '\(path)' is not valid UTF-8, so it cannot be stored in a pack: rename the file",
                        at: entryLocation(entry), subject: path))
            }
            let unnamable = Set(invalidNames.map(\.path))
            let checked = alreadyChecked(resources)
            // Positions, not a copy of the resources: a million of them are 72 MB.
            var positions: [UInt32] = []
            for position in resources.indices where !checked[position] {
                if unnamable.isEmpty || !unnamable.contains(resources[position].path) {
                    positions.append(UInt32(position))
                }
            }
            let unchecked = PackFiles(resources, positions: positions)
            diagnostics += ExecutableContentCheck(rootPath: rootPath, fileSystem: fileSystem).check(unchecked) {
                entryLocation($0.firstEntry)
            }
        }
        var resolution = Resolution(
            rootPath: rootPath, resources: resources, appBundleFiles: appBundleFiles,
            appBundleSize: appBundleSize, diagnostics: diagnostics, fingerprint: fingerprint)
        resolution.countsAppBundle = !ignoresUntagged
        resolution.appBundleSizeOverflows = appBundleSizeOverflows
        resolution.untaggedFiles = untaggedFiles
        resolution.pathBytes = arena.allocatedBytes
        return resolution
    }

    /// Two files with one destination are a `destination-conflict` naming both entries (docs/manifest.md#destinations); resources end up
    /// sorted by destination.
    mutating func checkDestinations() {
        resources.sort { $0.pathPrecedes($1) }
        for (first, second) in zip(resources, resources.dropFirst()) where first.hasSamePath(as: second) {
            let firstEntry = first.placedBy ?? first.firstEntry
            let secondEntry = second.placedBy ?? second.firstEntry
            diagnostics.append(
                .error(
                    .destinationConflict,
                    """
                    '\(first.source)' (entry at \(describe(firstEntry))) and '\(second.source)' (entry at \
                    \(describe(secondEntry))) both go to '\(first.path)' in the app and its packs: Xcode stops with \
                    \"multiple commands produce\"; give one of them another 'into', or untag one
                    """,
                    at: entryLocation(secondEntry), subject: first.path))
        }
        guard !untaggedPaths.isEmpty else { return }
        for resource in resources where resource.isPlaced && untaggedPaths.contains(PathKey(resource.path)) {
            let entry = resource.placedBy ?? resource.firstEntry
            diagnostics.append(
                .error(
                    .destinationConflict,
                    """
                    '\(resource.source)' (entry at \(describe(entry))) goes to '\(resource.path)', where the untagged \
                    file '\(resource.path)' stays in the app: the app and the pack would both hold '\(resource.path)' \
                    (Xcode stops with "multiple commands produce"); give the entry another 'into', tag or exclude the \
                    untagged file, or rename one
                    """,
                    at: entryLocation(entry), subject: resource.path))
        }
    }

    /// How a path that the file system finds is spelled on disk, component by component (nil when a folder cannot
    /// be listed): on a case-insensitive volume `hero.png` finds `Hero.png` (docs/manifest.md#tags).
    func spellingOnDisk(_ path: String) -> String? {
        var folder = rootPath
        var spelled: [String] = []
        for component in path.slashSeparated().map(String.init) {
            guard let names = fileSystem.names(in: folder) else { return nil }
            let onDisk =
                names.first { $0.hasSameBytes(as: component) }
                ?? names.first { $0.lowercased() == component.lowercased() }
                ?? component
            spelled.append(onDisk)
            folder += "/" + onDisk
        }
        return spelled.joined(separator: "/")
    }

    /// The existing path an entry most likely meant (docs/diagnostics.md): component by component, the name that
    /// differs only in letter case, else the closest name in that folder (the did-you-mean of manifest keys). Lists
    /// only the folders on the path, never walks a tree; nil when a component has no likely match.
    func closestExisting(_ path: String) -> (path: String, caseOnly: Bool)? {
        var folder = rootPath
        var spelled: [String] = []
        var caseOnly = true
        for component in path.slashSeparated().map(String.init) {
            guard let names = fileSystem.names(in: folder)?.sorted(by: { $0.precedesByCodePoint($1) }) else {
                return nil
            }
            let lowered = component.lowercased()
            if let same = names.first(where: { $0.hasSameBytes(as: component) }) {
                spelled.append(same)
            } else if let other = names.first(where: { $0.lowercased() == lowered }) {
                spelled.append(other)
            } else if let close = Suggestion.closest(to: component, in: names) {
                spelled.append(close)
                caseOnly = false
            } else {
                return nil
            }
            folder += "/" + spelled[spelled.count - 1]
        }
        let result = spelled.joined(separator: "/")
        return result.hasSameBytes(as: path) ? nil : (result, caseOnly)
    }

    mutating func checkEntries() {
        for (index, entry) in manifest.entries.enumerated() where !settledEntries.contains(index) {
            let location = entry.selectorLocation
            switch entry.selector {
            case .path(let path):
                if !visitedEntryPaths.contains(PathKey(path)) {
                    let absolute = path.isEmpty ? rootPath : rootPath + "/" + path
                    guard case .success(let status) = fileSystem.status(absolute, followingLinks: false) else {
                        var fix = "fix the path or remove the entry"
                        if case (let spelled, let caseOnly)? = closestExisting(path) {
                            fix =
                                caseOnly
                                ? """
                                did you mean '\(spelled)'? letter case differs, and Linux file systems are \
                                case-sensitive: write the name as it is on disk
                                """
                                : "did you mean '\(spelled)'? fix the path or remove the entry"
                        }
                        diagnostics.append(
                            .error(
                                .pathNotFound, "path '\(path)' does not exist under resources-root: \(fix)",
                                at: location, subject: path))
                        continue
                    }
                    if let spelled = spellingOnDisk(path), !spelled.hasSameBytes(as: path) {
                        // A file system that ignores case (or normalization) finds the name; entries compare bytes.
                        diagnostics.append(
                            .error(
                                .pathNotFound,
                                """
                                path '\(path)' does not exist under resources-root as written: the name on disk is \
                                '\(spelled)' (this file system ignores letter case, entries do not): write it as on \
                                disk
                                """,
                                at: location, subject: path))
                    } else if status.kind != .symbolicLink {
                        diagnostics.append(
                            .warning(
                                .entryMatchesNothing,
                                "path '\(path)' names no packable file (it is excluded or not a regular file)",
                                at: location, subject: path))
                    }
                } else if matchCounts[index] == 0 {
                    diagnostics.append(
                        .warning(
                            .entryMatchesNothing,
                            "folder '\(path.isEmpty ? "." : path)' holds no files to tag: add files or remove the entry",
                            at: location, subject: path))
                }
            case .glob(let glob):
                if matchCounts[index] == 0 {
                    diagnostics.append(
                        .warning(
                            .entryMatchesNothing,
                            "glob '\(glob)' matches no file: check the pattern (paths are relative to resources-root)",
                            at: location, subject: glob))
                }
            }
        }
    }
}
