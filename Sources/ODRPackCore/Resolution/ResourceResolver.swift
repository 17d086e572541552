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
        // `{language}` path entries become one entry per language folder (docs/background-assets.md#languages).
        var manifest = self.manifest
        let expanded = LanguageFolders(manifest: manifest, fileSystem: fileSystem).expandedEntries()
        if let expanded { manifest.entries = expanded.entries }
        var walk = Walk(
            manifest: manifest, fileSystem: fileSystem, outputMarker: outputMarker, alreadyChecked: alreadyChecked)
        walk.diagnostics = expanded?.diagnostics ?? []
        if listsUntagged { walk.untaggedFiles = [] }
        walk.run(tree: tree?.take())
        var resolution = walk.finish()
        resolution.expandedEntries = expanded?.entries
        return resolution
    }
}

private struct Walk {
    let manifest: TagManifest
    let fileSystem: any ResourceFileSystem
    var diagnostics: [Diagnostic] = []
    /// resources-root with its links resolved, as the file system gave it ("" until found), and as a path.
    var rootPath = ""
    var root = FilePath()
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
    /// Labels per sorted list of contributing entries and the file's language: one object for all their files.
    var labelsCache: [LabelsKey: ResourceLabels] = [:]
    /// Each entry's `language`, canonical (docs/background-assets.md#languages).
    var entryLanguages: [String?]
    /// The glob text of each entry whose glob holds `{language}`, by entry.
    var languageGlobs: [Int: String] = [:]
    /// Each entry's platforms in the order iOS, macOS, tvOS, visionOS; nil for every platform.
    var entryPlatforms: [[String]?]
    /// Whether any entry gives a language (`language`, `{language}`): only then is a file's language looked for.
    let hasLanguages: Bool
    /// Pairs of entries already reported as a `language-conflict`, and folders already reported `language-invalid`.
    var reportedConflicts = Set<[Int]>()
    var reportedLanguageFolders = Set<String>()
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
        entryLanguages = manifest.entries.map { $0.language?.value }
        entryPlatforms = manifest.entries.map { entry in entry.platforms.map { ApplePlatform.ordered($0.map(\.value)) }
        }
        hasLanguages = manifest.entries.contains { $0.language != nil || $0.languageComponent != nil }
        hasInto = manifest.entries.contains { $0.into != nil }
        reach = EntryReach(manifest: manifest)
        ignoresUntagged = manifest.untagged == .ignore
        matchCounts = Array(repeating: 0, count: manifest.entries.count)
        for (index, entry) in manifest.entries.enumerated() {
            switch entry.selector {
            case .path(let path):
                pathEntries[PathKey(path), default: []].append(index)
            case .glob(let glob) where entry.languageComponent != nil:
                languageGlobs[index] = glob
                if let pattern = GlobPattern(LanguageFolders.matchingGlob(glob)) {
                    globEntries.append((index, pattern))
                }
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
        let rootFolder = manifest.resourcesRootPath
        let rootLocation = manifest.resourcesRoot.location ?? manifest.keyLocations["resources-root"]
        guard case .success(let real) = fileSystem.resolvedPath(rootFolder.string) else {
            // A resolution's paths are text (docs/architecture.md#paths): a root whose path is not UTF-8 (a project in
            // a folder `N\xE9/`) cannot be read yet, which is said as such, not as a missing folder.
            let text = String(validating: rootFolder.bytes, as: UTF8.self) != nil
            diagnostics.append(
                .error(
                    .pathNotFound,
                    text
                        ? """
                        resources-root '\(manifest.resourcesRoot.value)' does not exist (looked for \(rootFolder.text)): \
                        create it or fix 'resources-root'
                        """
                        : """
                        resources-root '\(manifest.resourcesRoot.value)' is at a path that is not UTF-8 \
                        (\(rootFolder.text)), which odrpack cannot read resources from yet: move the project to a \
                        folder whose path is UTF-8, or reach it through a link whose path is
                        """,
                    at: rootLocation, subject: manifest.resourcesRoot.value))
            return
        }
        rootPath = real
        root = FilePath(real)
        guard case .success(let rootStatus) = fileSystem.status(rootPath, followingLinks: true),
            rootStatus.kind == .directory
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
        walkedFolders[DirectoryID(rootStatus.stamp)] = ""
        walkDirectory(
            &scanned, 0, absolute: root, relative: "", components: [], inherited: pathEntries[PathKey("")] ?? [],
            ancestors: [DirectoryID(rootStatus.stamp)])
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

    /// What the files and subfolders of one folder share, worked out once per folder (never per file): where the
    /// folder is, which entries tag all of it, and which globs and excludes could match anything in it.
    struct FolderScope {
        /// On disk, for the few calls that need the folder itself (following a link in it).
        let absolute: FilePath
        /// Relative to resources-root ("" at the root), as entries name it.
        let relative: String
        /// `relative` with a trailing "/" ("" at the root): a child's relative path is this and its name.
        let prefix: String
        let components: [String]
        /// The path entries that name this folder or one above it, sorted.
        let inherited: [Int]
        /// The labels every file here gets when no entry or glob of its own adds more.
        let inheritedLabels: ResourceLabels
        let candidateGlobs: [Int]
        let candidateExcludes: [GlobPattern]
        /// Whether a path entry may name something in this folder (only then are names looked up).
        let mayHoldEntries: Bool
        /// The real folders from resources-root down to this one: a link back to one of them is a loop.
        let ancestors: Set<DirectoryID>
    }

    /// One listed entry of a folder as the walk sees it: a link is replaced by what it leads to, and a link to a
    /// folder the walk enters carries its own scan of that folder.
    struct Found {
        var kind: FileStatus.Kind
        var stamp: FileStamp
        var linkedTree: FileTree?
    }

    /// Walks one folder of `tree`, then its subfolders, emptying each folder of `tree` as it takes it: a folder is
    /// walked once, and the tree's entries are freed while the resources they become are made (at a million files
    /// the two would otherwise be held together, some 70 MB each).
    mutating func walkDirectory(
        _ tree: inout FileTree, _ index: Int, absolute: FilePath, relative: String, components: [String],
        inherited: [Int], ancestors: Set<DirectoryID>
    ) {
        let directory = takeDirectory(&tree, index)
        guard directory.error == 0 else {
            reportUnreadableFolder(relative, error: directory.error, inherited: inherited)
            return
        }
        let scope = folderScope(
            absolute: absolute, relative: relative, components: components, inherited: inherited, ancestors: ancestors)
        for position in 0..<directory.count {
            let entry = directory.entries[position]
            guard entry.mode != 0 else {
                // Vanished since the folder was listed: no longer a file of the project. Anything else is a problem.
                if entry.error != ENOENT { reportUnlisted(directory.name(position), error: entry.error, in: scope) }
                continue
            }
            let bytes = directory.name(position)
            var name = String(decoding: bytes, as: UTF8.self)
            // Decoding repairs invalid UTF-8, which changes the bytes.
            let validName = name.withUTF8 { decoded in bytes.withUnsafeBufferPointer { decoded.elementsEqual($0) } }
            let childRelative = scope.prefix + name
            var found = Found(kind: FileStatus.Kind(mode: entry.mode), stamp: entry.stamp)
            if found.kind == .symbolicLink {
                guard let followed = followLink(name: name, relative: childRelative, in: scope) else { continue }
                found = followed
            }
            if found.kind == .directory {
                enterFolder(
                    &tree, child: entry.child, name: name, relative: childRelative, found: &found, in: scope)
            } else if found.kind == .regular {
                addFile(
                    name: name, relative: childRelative, folder: relative, stamp: found.stamp, validName: validName,
                    inherited: inherited,
                    inheritedLabels: scope.inheritedLabels, mayBeEntry: scope.mayHoldEntries,
                    candidateGlobs: scope.candidateGlobs, candidateExcludes: scope.candidateExcludes)
            }
        }
    }

    /// Takes one folder out of `tree`, giving the freed memory back every 65,536 entries.
    mutating func takeDirectory(_ tree: inout FileTree, _ index: Int) -> FileTree.Directory {
        let directory = tree.takeDirectory(index)
        entriesTaken += directory.count
        if entriesTaken >= 1 << 16 {
            SystemCall.releaseFreedMemory()
            entriesTaken = 0
        }
        return directory
    }

    /// A folder that cannot be listed: an error when an entry reaches it; else, since it cannot change a pack
    /// (docs/manifest.md#untagged-files), a warning, and nothing with `untagged: ignore`.
    mutating func reportUnreadableFolder(_ relative: String, error: Int32, inherited: [Int]) {
        let reason = SystemError(error).reason
        let shown = relative.isEmpty ? "." : relative
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
    }

    /// The scope of a folder about to be walked: the globs and excludes that could match in it are chosen here, so
    /// that each file is tried against those alone.
    mutating func folderScope(
        absolute: FilePath, relative: String, components: [String], inherited: [Int], ancestors: Set<DirectoryID>
    ) -> FolderScope {
        FolderScope(
            absolute: absolute, relative: relative, prefix: relative.isEmpty ? "" : relative + "/",
            components: components, inherited: inherited,
            inheritedLabels: inherited.isEmpty ? .untagged : labels(inherited, path: relative),
            candidateGlobs: globEntries.indices.filter { globEntries[$0].pattern.couldMatch(filesIn: components) },
            candidateExcludes: excludes.filter { $0.couldMatch(filesIn: components) },
            mayHoldEntries: reach.entryFolders.contains(PathKey(relative)), ancestors: ancestors)
    }

    /// An entry the scan listed but could not read (`lstat` failed for another reason than its vanishing).
    mutating func reportUnlisted(_ bytes: ArraySlice<UInt8>, error: Int32, in scope: FolderScope) {
        let path = scope.prefix + String(decoding: bytes, as: UTF8.self)
        report(
            .fileUnreadable,
            "cannot read '\(path)': \(SystemError(error).reason): fix its permissions or exclude it",
            path: path, inherited: scope.inherited, globs: scope.candidateGlobs)
    }

    /// What a symbolic link leads to (docs/manifest.md#files-and-links), or nil, with the problem reported, for a
    /// broken link, a loop, a target outside resources-root or one that cannot be read. A link to a folder that the
    /// walk will enter (not version control, not an ancestor, not walked yet, reached by an entry or counted) comes
    /// with a scan of that folder.
    mutating func followLink(name: String, relative: String, in scope: FolderScope) -> Found? {
        let link = scope.absolute.joined(name).string
        let targetPath: String
        switch fileSystem.resolvedPath(link) {
        case .success(let path):
            targetPath = path
        case .failure(let error):
            report(
                .fileUnreadable,
                error.isLoop
                    ? "symbolic link '\(relative)' is a loop: remove it or exclude it"
                    : "symbolic link '\(relative)' is broken (its target does not exist): remove it or fix its target",
                path: relative, inherited: scope.inherited, globs: scope.candidateGlobs)
            return nil
        }
        guard FilePath(targetPath).isInside(root) else {
            if !isExcluded(name: name, path: relative, candidates: scope.candidateExcludes) {
                report(
                    .pathOutsideRoot,
                    """
                    symbolic link '\(relative)' points outside resources-root (to \(targetPath)): copy \
                    the file in or remove the link
                    """,
                    path: relative, inherited: scope.inherited, globs: scope.candidateGlobs)
            }
            return nil
        }
        let target: FileStatus
        switch fileSystem.status(link, followingLinks: true) {
        case .success(let status):
            target = status
        case .failure(let error):
            report(
                .fileUnreadable, "cannot read '\(relative)' through its link: \(error.reason)",
                path: relative, inherited: scope.inherited, globs: scope.candidateGlobs)
            return nil
        }
        var found = Found(kind: target.kind, stamp: target.stamp)
        let id = DirectoryID(target.stamp)
        if found.kind == .directory && !Self.isVersionControl(name) && !scope.ancestors.contains(id)
            && walkedFolders[id] == nil
            && (!ignoresUntagged || !scope.inherited.isEmpty || reach.mayHoldResources(relative))
        {
            found.linkedTree = fileSystem.scan(link).sortedByName()
        }
        return found
    }

    /// A subfolder (listed, or reached through a link): walked unless it is version control, a loop back to a folder
    /// above it, a folder no entry reaches under `untagged: ignore`, a real folder already walked under another path
    /// (`symlink-duplicate`), or an odrpack build folder.
    mutating func enterFolder(
        _ tree: inout FileTree, child: Int, name: String, relative: String, found: inout Found, in scope: FolderScope
    ) {
        if Self.isVersionControl(name) { return }
        let id = DirectoryID(found.stamp)
        if scope.ancestors.contains(id) {
            report(
                .fileUnreadable,
                """
                symbolic link '\(relative)' leads back to a folder that contains it (a loop): remove it \
                or exclude it
                """,
                path: relative, inherited: scope.inherited, globs: scope.candidateGlobs)
            return
        }
        var childInherited = scope.inherited
        if scope.mayHoldEntries, let own = pathEntries[PathKey(relative)] {
            childInherited = Array(Set(childInherited + own)).sorted()
            visitedEntryPaths.insert(PathKey(relative))
        }
        if ignoresUntagged && childInherited.isEmpty && !reach.mayHoldResources(relative) { return }
        if let first = walkedFolders[id] {
            reportDuplicateFolder(name: name, relative: relative, first: first, inherited: childInherited, in: scope)
            return
        }
        walkedFolders[id] = relative
        var childAncestors = scope.ancestors
        childAncestors.insert(id)
        let childIndex = found.linkedTree == nil ? child : 0
        guard childIndex >= 0 else { return }
        // An odrpack build folder (it holds the build's lock file) is output, never a resource: a build into
        // a folder under resources-root must not pack its own packs (docs/manifest.md#files-and-links).
        if let outputMarker,
            found.linkedTree?.directories[0].contains(name: outputMarker)
                ?? tree.directories[childIndex].contains(name: outputMarker)
        {
            skipBuildFolder(relative, inherited: childInherited)
            return
        }
        let absolute = scope.absolute.joined(name)
        if var linked = found.linkedTree {
            found.linkedTree = nil
            walkDirectory(
                &linked, 0, absolute: absolute, relative: relative, components: scope.components + [name],
                inherited: childInherited, ancestors: childAncestors)
        } else {
            walkDirectory(
                &tree, childIndex, absolute: absolute, relative: relative, components: scope.components + [name],
                inherited: childInherited, ancestors: childAncestors)
        }
    }

    /// A real folder reached a second time (through a symbolic link): its files are resources once, at the first
    /// path (docs/manifest.md#files-and-links); the walk goes in code-point order, so the first path is the least.
    mutating func reportDuplicateFolder(
        name: String, relative: String, first: String, inherited: [Int], in scope: FolderScope
    ) {
        guard !isExcluded(name: name, path: relative, candidates: scope.candidateExcludes) else { return }
        diagnostics.append(
            .warning(
                .symlinkDuplicate,
                """
                '\(relative)' reaches the folder already reached as '\(first)' (through a \
                symbolic link): its files are resources once, at '\(first)'; remove the link or \
                exclude one of the paths
                """,
                at: entryLocation(inherited.first), subject: relative))
    }

    /// What Xcode's resource copy drops, at any depth (docs/manifest.md), beside the version-control folders and files
    /// (`VersionControl`): Finder's folder settings.
    static let finderFile = Array(".DS_Store".utf8)

    /// Whether Xcode's resource copy drops `name`, a version-control folder or file (a submodule's `.git` is a file
    /// that holds a local path). Compared by bytes.
    static func isVersionControl(_ name: String) -> Bool {
        VersionControl.isFolderName(name)
    }

    func isExcluded(name: String, path: String, candidates: [GlobPattern]) -> Bool {
        if Self.isVersionControl(name) || name.utf8.elementsEqual(Self.finderFile) { return true }
        if candidates.isEmpty { return false }
        let bytes = Array(path.utf8)
        return candidates.contains { $0.matches(bytes) }
    }

    mutating func addFile(
        name: String, relative: String, folder: String, stamp: FileStamp, validName: Bool, inherited: [Int],
        inheritedLabels: ResourceLabels, mayBeEntry: Bool, candidateGlobs: [Int], candidateExcludes: [GlobPattern]
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
        let labels: ResourceLabels
        if contributing.count == inherited.count {
            labels = inheritedLabels
        } else {
            contributing = Array(Set(contributing)).sorted()
            labels = self.labels(contributing, path: relative)
        }
        for entry in contributing { matchCounts[entry] += 1 }
        if !validName { invalidNames.append((relative, contributing.first)) }
        let placed = hasInto ? destination(of: relative, name: name, contributing: contributing) : nil
        var resource: ResolvedResource
        // A folder and its slash longer than its 4-byte number are stored once for all their files.
        if placed == nil && folder.utf8.count >= 4 {
            resource = ResolvedResource(
                name: name, folder: folderNumber(folder), in: arena, size: size, stamp: stamp, labels: labels,
                firstEntry: contributing.first)
        } else {
            resource = ResolvedResource(
                path: placed?.destination ?? relative, source: placed == nil ? nil : relative, in: arena, size: size,
                stamp: stamp, labels: labels, firstEntry: contributing.first)
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

    static func join(_ folder: String, _ rest: String) -> String { RelativePath.joined(folder, rest) }

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
            return path.isPath(inside: relative, orIsIt: true)
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

    struct LabelsKey: Hashable {
        var contributing: [Int]
        var language: String?
    }

    /// The labels of a file at `path` (or of every file of the folder `path`) that a sorted list of entries names:
    /// their tags, the language one of them gives (two different ones are a `language-conflict`), and the union of
    /// their platforms (an entry without `platforms` is for every platform).
    mutating func labels(_ contributing: [Int], path: String) -> ResourceLabels {
        let language = hasLanguages ? self.language(contributing, path: path) : nil
        let key = LabelsKey(contributing: contributing, language: language)
        if let cached = labelsCache[key] { return cached }
        var platforms: Set<String>? = []
        for entry in contributing {
            guard let own = entryPlatforms[entry] else {
                platforms = nil
                break
            }
            platforms?.formUnion(own)
        }
        let labels = ResourceLabels(
            tags: tagSet(contributing), language: language, platforms: platforms.map(ApplePlatform.ordered))
        labelsCache[key] = labels
        return labels
    }

    /// The language the entries give the file at `path`: an entry's `language`, or the folder at its glob's
    /// `{language}` place (docs/background-assets.md#languages).
    mutating func language(_ contributing: [Int], path: String) -> String? {
        var chosen: (language: String, entry: Int)?
        for entry in contributing {
            var language = entryLanguages[entry]
            if let glob = languageGlobs[entry] {
                language = globLanguage(path: path, glob: glob, entry: entry)
            }
            guard let language else { continue }
            guard let first = chosen else {
                chosen = (language, entry)
                continue
            }
            if first.language != language && reportedConflicts.insert([first.entry, entry]).inserted {
                diagnostics.append(
                    .error(
                        .languageConflict,
                        """
                        '\(path)' is given two languages: '\(first.language)' by the entry at \(describe(first.entry)) \
                        and '\(language)' by the entry at \(describe(entry)): a file has one language; narrow one of \
                        the entries
                        """,
                        at: entryLocation(entry), subject: path))
            }
        }
        return chosen?.language
    }

    /// The language of the folder at the `{language}` place of `glob` in `path`; nil for `Base.lproj`, and for a name
    /// that is no language (a `language-invalid`, once per folder).
    mutating func globLanguage(path: String, glob: String, entry: Int) -> String? {
        let components = path.split(separator: "/")
        guard let folder = LanguageFolders.languageFolder(of: components, glob: glob) else { return nil }
        switch LanguageTag.folderMeaning(String(folder)) {
        case .language(let language): return language
        case .notLocalized: return nil
        case .invalid:
            let index = components.firstIndex { $0.endIndex == folder.endIndex && $0.startIndex == folder.startIndex }
            let shown = components[...(index ?? components.startIndex)].joined(separator: "/")
            if reportedLanguageFolders.insert(shown).inserted {
                diagnostics.append(
                    .error(
                        .languageInvalid,
                        """
                        folder '\(shown)' stands where '\(glob)' expects a language: name it as a BCP 47 language \
                        (fr, pt-BR, zh-Hant, or fr.lproj, pt_BR.lproj; Base.lproj for files of no language), or \
                        exclude it, or move it
                        """,
                        at: entryLocation(entry), subject: shown))
            }
            return nil
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
            diagnostics += ExecutableContentCheck(root: root, fileSystem: fileSystem).check(unchecked) {
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
        var folder = root
        var spelled: [String] = []
        for component in path.slashSeparated().map(String.init) {
            guard let names = fileSystem.names(in: folder.string) else { return nil }
            let onDisk =
                names.first { $0.hasSameBytes(as: component) }
                ?? names.first { $0.lowercased() == component.lowercased() }
                ?? component
            spelled.append(onDisk)
            folder = folder.joined(onDisk)
        }
        return spelled.joined(separator: "/")
    }

    /// The existing path an entry most likely meant (docs/diagnostics.md): component by component, the name that
    /// differs only in letter case, else the closest name in that folder (the did-you-mean of manifest keys). Lists
    /// only the folders on the path, never walks a tree; nil when a component has no likely match.
    func closestExisting(_ path: String) -> (path: String, caseOnly: Bool)? {
        var folder = root
        var spelled: [String] = []
        var caseOnly = true
        for component in path.slashSeparated().map(String.init) {
            guard let names = fileSystem.names(in: folder.string)?.sorted(by: { $0.precedesByCodePoint($1) }) else {
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
            folder = folder.joined(spelled[spelled.count - 1])
        }
        let result = spelled.joined(separator: "/")
        return result.hasSameBytes(as: path) ? nil : (result, caseOnly)
    }

    /// The fix for a path written in one Unicode normalization that is on disk in another (NFC typed, NFD on disk, as
    /// macOS and git leave names): both spellings escaped, since they look alike; nil when the two differ otherwise.
    static func normalizationFix(written: String, onDisk: String) -> String? {
        // Swift compares strings by canonical equivalence: equal, yet other bytes, is normalization alone.
        guard written == onDisk, !written.hasSameBytes(as: onDisk) else { return nil }
        func form(_ text: String) -> String {
            if text.hasSameBytes(as: text.decomposedStringWithCanonicalMapping) { return "NFD" }
            if text.hasSameBytes(as: text.precomposedStringWithCanonicalMapping) { return "NFC" }
            return "mixed forms"
        }
        func escaped(_ text: String) -> String {
            text.unicodeScalars.map { scalar in
                guard !scalar.isASCII else { return String(scalar) }
                let hex = String(scalar.value, radix: 16)
                return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }.joined()
        }
        return """
            did you mean '\(escaped(onDisk))' (written '\(escaped(written))')? the name differs in Unicode \
            normalization (\(form(onDisk)) on disk, \(form(written)) in the manifest), and entries name the bytes on \
            disk: write the name as it is on disk
            """
    }

    /// `path-not-found` and `entry-matches-nothing` for the entries no earlier error settled: a path entry the walk
    /// never reached, a folder entry that tagged no file, a glob that matched none.
    mutating func checkEntries() {
        for (index, entry) in manifest.entries.enumerated() where !settledEntries.contains(index) {
            let location = entry.selectorLocation
            switch entry.selector {
            case .path(let path):
                if !visitedEntryPaths.contains(PathKey(path)) {
                    checkUnvisitedPath(path, at: location)
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

    /// A path entry the walk never reached: missing (with the name it most likely meant), found only because this
    /// file system ignores letter case, or there but nothing packable (excluded, or not a regular file).
    mutating func checkUnvisitedPath(_ path: String, at location: SourceLocation?) {
        guard case .success(let status) = fileSystem.status(root.joined(path).string, followingLinks: false) else {
            var fix = "fix the path or remove the entry"
            if case (let spelled, let caseOnly)? = closestExisting(path) {
                fix =
                    Self.normalizationFix(written: path, onDisk: spelled)
                    ?? (caseOnly
                        ? """
                        did you mean '\(spelled)'? letter case differs, and Linux file systems are \
                        case-sensitive: write the name as it is on disk
                        """
                        : "did you mean '\(spelled)'? fix the path or remove the entry")
            }
            diagnostics.append(
                .error(
                    .pathNotFound, "path '\(path)' does not exist under resources-root: \(fix)",
                    at: location, subject: path))
            return
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
    }
}
