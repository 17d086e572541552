import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Walks resources-root and gives every regular file its tags (SPEC section 3, steps 1 to 3).
/// Reads metadata only, plus the first bytes of tagged files to catch executable code.
public struct ResourceResolver {
    public let manifest: TagManifest
    /// A file a previous build already checked, by path: its first bytes are not read again while unchanged.
    /// Asked only after the walk, so the previous build's cache can load meanwhile.
    public let trustedStamp: (String) -> FileStamp?

    public init(manifest: TagManifest, trustedStamp: @escaping (String) -> FileStamp? = { _ in nil }) {
        self.manifest = manifest
        self.trustedStamp = trustedStamp
    }

    public func resolve() -> Resolution {
        var walk = Walk(manifest: manifest, trustedStamp: trustedStamp)
        walk.run()
        return walk.finish()
    }
}

private struct Walk {
    let manifest: TagManifest
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

    let trustedStamp: (String) -> FileStamp?

    init(manifest: TagManifest, trustedStamp: @escaping (String) -> FileStamp?) {
        self.manifest = manifest
        self.trustedStamp = trustedStamp
        entryTags = manifest.entries.map { Array(Set($0.tags.map(\.value))).sorted() }
        matchCounts = Array(repeating: 0, count: manifest.entries.count)
        for (index, entry) in manifest.entries.enumerated() {
            switch entry.selector {
            case let .path(path): pathEntries[path, default: []].append(index)
            case let .glob(glob): if let pattern = GlobPattern(glob) { globEntries.append((index, pattern)) }
            }
        }
        excludes = manifest.exclude.compactMap { GlobPattern($0.value) }
    }

    func entryLocation(_ index: Int?) -> SourceLocation? {
        guard let index else { return nil }
        return manifest.entries[index].selectorLocation
    }

    mutating func run() {
        let rootURL = manifest.resourcesRootURL
        let rootLocation = manifest.resourcesRoot.location ?? manifest.keyLocations["resources-root"]
        guard let real = realpath(rootURL.path, nil) else {
            diagnostics.append(.error(.pathNotFound,
                                      "resources-root '\(manifest.resourcesRoot.value)' does not exist (looked for \(rootURL.path)): create it or fix 'resources-root'",
                                      at: rootLocation, subject: manifest.resourcesRoot.value))
            return
        }
        rootPath = String(cString: real)
        free(real)
        var info = stat()
        guard stat(rootPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            diagnostics.append(.error(.pathNotFound, "resources-root '\(manifest.resourcesRoot.value)' is not a folder",
                                      at: rootLocation, subject: manifest.resourcesRoot.value))
            return
        }
        walkDirectory(absolute: rootPath, relative: "", components: [], inherited: pathEntries[""] ?? [],
                      ancestors: [DirectoryID(info)])
        if pathEntries[""] != nil { visitedEntryPaths.insert("") }
    }

    struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    mutating func walkDirectory(absolute: String, relative: String, components: [String], inherited: [Int],
                                ancestors: Set<DirectoryID>) {
        guard let directory = opendir(absolute) else {
            let reason = String(cString: strerror(errno))
            diagnostics.append(.error(.fileUnreadable, "cannot read folder '\(relative.isEmpty ? "." : relative)': \(reason)",
                                      subject: relative.isEmpty ? "." : relative))
            return
        }
        let descriptor = dirfd(directory)
        // Raw names (kept only when not UTF-8) go to the system calls; the decoded ones to everything else.
        var names: [(name: String, raw: [CChar]?)] = []
        while let entry = readdir(directory) {
            let decoded = withUnsafeBytes(of: entry.pointee.d_name) { bytes -> (String, [CChar]?) in
                let length = bytes.firstIndex(of: 0) ?? bytes.count
                let slice = UnsafeRawBufferPointer(rebasing: bytes[..<length]).bindMemory(to: UInt8.self)
                if let valid = String(validating: slice, as: UTF8.self) { return (valid, nil) }
                return (String(decoding: slice, as: UTF8.self), slice.map { CChar(bitPattern: $0) } + [0])
            }
            if decoded.0 == "." || decoded.0 == ".." { continue }
            names.append(decoded)
        }
        // In name order, the final sort of all paths meets nearly sorted input.
        names.sort { $0.name.precedesByCodePoint($1.name) }
        let candidateGlobs = globEntries.indices.filter { globEntries[$0].pattern.couldMatch(filesIn: components) }
        let candidateExcludes = excludes.filter { $0.couldMatch(filesIn: components) }

        // Metadata of every entry; large folders are read on every core.
        let infos = UnsafeMutableBufferPointer<stat?>.allocate(capacity: names.count)
        infos.initialize(repeating: nil)
        defer { infos.deallocate() }
        func lstatEntry(_ index: Int) {
            var info = stat()
            let found = names[index].raw.map { fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) }
                ?? fstatat(descriptor, names[index].name, &info, AT_SYMLINK_NOFOLLOW)
            if found == 0 { infos[index] = info }
        }
        if names.count >= 512 {
            let chunk = 256
            DispatchQueue.concurrentPerform(iterations: (names.count + chunk - 1) / chunk) { part in
                for index in (part * chunk)..<min(names.count, (part + 1) * chunk) { lstatEntry(index) }
            }
        } else {
            for index in names.indices { lstatEntry(index) }
        }

        for (index, (name, rawName)) in names.enumerated() {
            let validName = rawName == nil
            let childRelative = relative.isEmpty ? name : relative + "/" + name
            guard var info = infos[index] else { continue }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                let childAbsolute = absolute + "/" + name
                guard let target = realpath(childAbsolute, nil) else {
                    let loop = errno == ELOOP
                    diagnostics.append(.error(.fileUnreadable, loop
                        ? "symbolic link '\(childRelative)' is a loop: remove it or exclude it"
                        : "symbolic link '\(childRelative)' is broken (its target does not exist): remove it or fix its target",
                        subject: childRelative))
                    continue
                }
                let targetPath = String(cString: target)
                free(target)
                guard targetPath == rootPath || targetPath.hasPrefix(rootPath == "/" ? "/" : rootPath + "/") else {
                    if !isExcluded(name: name, path: childRelative, candidates: candidateExcludes) {
                        diagnostics.append(.error(.pathOutsideRoot,
                                                  "symbolic link '\(childRelative)' points outside resources-root (to \(targetPath)): copy the file in or remove the link",
                                                  subject: childRelative))
                    }
                    continue
                }
                guard stat(childAbsolute, &info) == 0 else { continue }
            }
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR {
                if name == ".git" { continue }
                let id = DirectoryID(info)
                if ancestors.contains(id) {
                    diagnostics.append(.error(.fileUnreadable,
                                              "symbolic link '\(childRelative)' leads back to a folder that contains it (a loop): remove it or exclude it",
                                              subject: childRelative))
                    continue
                }
                var childInherited = inherited
                if let own = pathEntries[childRelative] {
                    childInherited = Array(Set(childInherited + own)).sorted()
                    visitedEntryPaths.insert(childRelative)
                }
                var childAncestors = ancestors
                childAncestors.insert(id)
                walkDirectory(absolute: absolute + "/" + name, relative: childRelative, components: components + [name],
                              inherited: childInherited, ancestors: childAncestors)
            } else if type == S_IFREG {
                addFile(name: name, relative: childRelative, info: info, validName: validName, inherited: inherited,
                        candidateGlobs: candidateGlobs, candidateExcludes: candidateExcludes)
            }
        }
        closedir(directory)
    }

    func isExcluded(name: String, path: String, candidates: [GlobPattern]) -> Bool {
        if name == ".DS_Store" { return true }
        if candidates.isEmpty { return false }
        let bytes = Array(path.utf8)
        return candidates.contains { $0.matches(bytes) }
    }

    mutating func addFile(name: String, relative: String, info: stat, validName: Bool, inherited: [Int],
                          candidateGlobs: [Int], candidateExcludes: [GlobPattern]) {
        if isExcluded(name: name, path: relative, candidates: candidateExcludes) {
            if pathEntries[relative] != nil { visitedEntryPaths.insert(relative) }
            return
        }
        var contributing = inherited
        if let own = pathEntries[relative] {
            contributing += own
            visitedEntryPaths.insert(relative)
        }
        if !candidateGlobs.isEmpty {
            let bytes = Array(relative.utf8)
            for index in candidateGlobs where globEntries[index].pattern.matches(bytes) {
                contributing.append(globEntries[index].entry)
            }
        }
        let size = Int64(info.st_size)
        if contributing.isEmpty {
            appBundleFiles += 1
            appBundleSize += size
            return
        }
        if contributing.count > 1 { contributing = Array(Set(contributing)).sorted() }
        for entry in contributing { matchCounts[entry] += 1 }
        let tags: [String]
        if let cached = tagSetCache[contributing] {
            tags = cached
        } else {
            tags = Array(Set(contributing.flatMap { entryTags[$0] })).sorted()
            tagSetCache[contributing] = tags
        }
        if !validName { invalidNames.append((relative, contributing.first)) }
        resources.append(ResolvedResource(path: relative, size: size, stamp: FileStamp(info), tags: tags,
                                          firstEntry: contributing.first))
    }

    mutating func finish() -> Resolution {
        // Sorting indices moves integers, not whole resources.
        let order = resources.indices.sorted { resources[$0].path.precedesByCodePoint(resources[$1].path) }
        resources = order.map { resources[$0] }
        if !rootPath.isEmpty {
            checkEntries()
            for (path, entry) in invalidNames {
                diagnostics.append(.error(.fileUnreadable,
                                          "file name '\(path)' is not valid UTF-8, so it cannot be stored in a pack: rename the file",
                                          at: entryLocation(entry), subject: path))
            }
            let unnamable = Set(invalidNames.map(\.path))
            diagnostics += ExecutableContentCheck(rootPath: rootPath)
                .check(resources.filter { !unnamable.contains($0.path) && trustedStamp($0.path) != $0.stamp }) { entryLocation($0.firstEntry) }
        }
        return Resolution(rootPath: rootPath, resources: resources, appBundleFiles: appBundleFiles,
                          appBundleSize: appBundleSize, diagnostics: diagnostics)
    }

    mutating func checkEntries() {
        for (index, entry) in manifest.entries.enumerated() {
            let location = entry.selectorLocation
            switch entry.selector {
            case let .path(path):
                if !visitedEntryPaths.contains(path) {
                    var info = stat()
                    let absolute = path.isEmpty ? rootPath : rootPath + "/" + path
                    if lstat(absolute, &info) != 0 {
                        diagnostics.append(.error(.pathNotFound,
                                                  "path '\(path)' does not exist under resources-root: fix the path or remove the entry",
                                                  at: location, subject: path))
                    } else if (info.st_mode & S_IFMT) != S_IFLNK {
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
