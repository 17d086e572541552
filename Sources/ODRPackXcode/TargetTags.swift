import Foundation
import ODRPackCore
import ODRPackPlatform

/// The On-Demand Resources tags one target of a project gives, gathered from Xcode's three places for them
/// (docs/xcode.md) as manifest entries, with the notes and dropped keys found on the way. `XcodeImporter` reads them
/// in this order, which is the order of the notes and of the entries among equals: the resources phase's
/// `ASSET_TAGS`, the synchronized folders' `assetTagsByRelativePath`, then the asset catalogs' `Contents.json`.
/// Paths are relative to the project folder (they may start with `..`) until the importer decides resources-root.
struct TargetTags {
    /// One entry being gathered: a path (and, for a glob entry, what follows it), where its files go, and the tags
    /// and sources that name it.
    struct Tagged {
        var path: String
        var glob: String?
        /// The bundle folder the files go to ("" the root); nil for an asset catalog item.
        var into: String?
        var tags: Set<String> = []
        var sources: [String] = []
    }

    let project: XcodeProject
    /// By the entry's spelling: its path, then its glob suffix if any.
    private(set) var tagged: [String: Tagged] = [:]
    /// The keys of `tagged` in the order they were first found.
    private(set) var order: [String] = []
    /// Globs of files no entry may pack: a path and what follows it (`/**/.*`, `/**`, or "" for the path itself).
    var excludes: [(path: String, glob: String)] = []
    var notes: [String] = []
    /// Keys of synchronized folders that reach outside their folder, dropped (`import-path-outside`).
    var outside: [(kind: String, key: String, folder: String)] = []
    /// The resources phase's untagged files and where they go: a tagged folder that holds one puts it in a pack too.
    var untaggedResources: [(path: String, into: String)] = []
    /// Asset catalogs (relative to the project folder) whose items' Contents.json may name tags.
    var catalogs: [String] = []

    init(project: XcodeProject) { self.project = project }

    /// The entries in the order first found.
    var entries: [Tagged] { order.map { tagged[$0]! } }

    /// Gives `tags` to the entry spelled `path` + `glob`: a new entry keeps `into`; an entry seen before keeps its
    /// first `into` (with a note when this one differs) and gains the tags and the source.
    mutating func add(_ path: String, glob: String? = nil, into: String?, _ tags: [String], source: String) {
        guard !tags.isEmpty else { return }
        let key = path + (glob ?? "")
        if let existing = tagged[key] {
            if existing.into != into {
                notes.append(
                    """
                    '\(key)' is copied to two places (\(XcodeImporter.describe(existing.into)) and \
                    \(XcodeImporter.describe(into))); the manifest keeps the first
                    """
                )
            }
        } else {
            tagged[key] = Tagged(path: path, glob: glob, into: into)
            order.append(key)
        }
        tagged[key]!.tags.formUnion(tags)
        if !tagged[key]!.sources.contains(source) { tagged[key]!.sources.append(source) }
    }

    /// A tagged file that is missing is written all the same (Xcode's build fails on it; plan reports
    /// path-not-found), with one note line each, for classic references and synchronized folders alike.
    mutating func noteIfMissing(_ relative: String, source: String) {
        guard FilePath(checking: project.onDisk(relative)).flatMap({ SystemCall.status($0) }) == nil else { return }
        notes.append(
            """
            '\(relative)' is tagged (\(source)) but does not exist: Xcode's build fails on it, and plan reports \
            path-not-found until it is there
            """
        )
    }

    /// A file or group's path relative to the project folder; nil, with a note, when it has none. Groups that
    /// contain each other make the project unusable.
    mutating func resolved(_ id: String) throws -> String? {
        switch project.path(of: id) {
        case .success(let relative): return relative
        case .failure(let problem):
            if case .cycle = problem {
                throw ODRPackError.xcode(.malformed(project: project.bundlePath.name, problem: problem.description))
            }
            notes.append("skipped a resource: \(problem.description)")
            return nil
        }
    }

    // MARK: The resources phase

    /// `ASSET_TAGS` on the build files of the target's resources phase: a file or folder reference goes to the
    /// bundle's root (a folder keeps its name), a variant group's file to its `<language>.lproj` folder, an asset
    /// catalog is kept as one (its items are read later).
    mutating func readResourcesPhase(of target: XcodeProject.Object) throws {
        for phase in project.ids(target, "buildPhases").compactMap({ project[$0] })
        where phase["isa"] as? String == "PBXResourcesBuildPhase" {
            for buildFile in project.ids(phase, "files").compactMap({ project[$0] }) {
                guard let reference = buildFile["fileRef"] as? String, let object = project[reference] else { continue }
                let tags = ((buildFile["settings"] as? [String: Any])?["ASSET_TAGS"] as? [String]) ?? []
                let isVariantGroup = object["isa"] as? String == "PBXVariantGroup"
                for member in isVariantGroup ? project.ids(object, "children") : [reference] {
                    try addResource(member, tags: tags, isVariantGroup: isVariantGroup)
                }
            }
        }
    }

    /// One file of the resources phase (a variant group's member, or a reference of its own).
    mutating func addResource(_ member: String, tags: [String], isVariantGroup: Bool) throws {
        guard let relative = try resolved(member) else { return }
        if !tags.isEmpty, XcodeImporter.isVersionControl(relative) {
            notes.append("'\(relative)' is version-control metadata, which Xcode never copies: left out")
            return
        }
        if !tags.isEmpty { noteIfMissing(relative, source: "ASSET_TAGS") }
        let type = project[member]?["lastKnownFileType"] as? String ?? project[member]?["explicitFileType"] as? String
        if type == "folder.assetcatalog" || relative.hasSuffix(".xcassets") {
            catalogs.append(relative)
            add(relative, into: nil, tags, source: "ASSET_TAGS")
            return
        }
        let into =
            isVariantGroup
            ? XcodeImporter.languageFolder(of: relative, name: project[member]?["name"] as? String) : ""
        if tags.isEmpty {
            untaggedResources.append((relative, into))
        } else {
            add(relative, into: into, tags, source: "ASSET_TAGS")
        }
    }

    // MARK: Synchronized folders

    /// The target's synchronized folders (Xcode 16): files go to the bundle's root, those in a .lproj folder to it,
    /// those in an explicit folder keep that folder's name; a key that names a folder tags every file in it. A key
    /// that reaches outside its folder is dropped (`import-path-outside`), so it never widens resources-root.
    mutating func readSynchronizedFolders(of target: XcodeProject.Object, targetID: String) throws {
        for groupID in project.ids(target, "fileSystemSynchronizedGroups") {
            guard let folder = try resolved(groupID) else { continue }
            let group = project[groupID]
            let explicitFolders = (group?["explicitFolders"] as? [String] ?? []).map { XcodeProject.normalized($0) }
            let (excluded, keys) = exceptions(of: group, in: folder, targetID: targetID)
            let isExcluded = { (relative: String) in excluded.contains { relative.isPath(inside: $0, orIsIt: true) } }
            for (key, tags) in keys.sorted(by: { $0.0 < $1.0 }) where !isExcluded(key) {
                try addSynchronizedKey(
                    key, tags: tags, folder: folder, explicitFolders: explicitFolders, excluded: excluded,
                    isExcluded: isExcluded)
            }
            catalogs += try XcodeImporter.findCatalogs(in: FilePath(project.onDisk(folder)), relative: folder)
        }
    }

    /// The folder's exception sets for this target: the paths it leaves out of the target (`membershipExceptions`)
    /// and the tags of paths in it (`assetTagsByRelativePath`), both normalized; keys that reach outside the folder
    /// go to `outside` instead.
    mutating func exceptions(of group: XcodeProject.Object?, in folder: String, targetID: String) -> (
        excluded: Set<String>, keys: [(String, [String])]
    ) {
        var excluded = Set<String>()
        var keys: [(String, [String])] = []
        for exception in project.ids(group, "exceptions").compactMap({ project[$0] })
        where exception["isa"] as? String == "PBXFileSystemSynchronizedBuildFileExceptionSet"
            && (exception["target"] as? String).map({ $0 == targetID }) ?? true
        {
            for path in exception["membershipExceptions"] as? [String] ?? [] {
                if XcodeImporter.reachesOutside(path) {
                    outside.append(("membershipExceptions", path, folder))
                } else {
                    excluded.insert(XcodeProject.normalized(path))
                }
            }
            for (relative, tags) in exception["assetTagsByRelativePath"] as? [String: [String]] ?? [:] {
                if XcodeImporter.reachesOutside(relative) {
                    outside.append(("assetTagsByRelativePath", relative, folder))
                } else {
                    keys.append((XcodeProject.normalized(relative), tags))
                }
            }
        }
        return (excluded, keys)
    }

    /// One `assetTagsByRelativePath` key of a synchronized folder: a file goes where the folder puts it, an asset
    /// catalog's item keeps its path, a folder becomes the entries that place every file under it, now and later
    /// (`XcodeImporter.folderEntries`), with its hidden files and membership exceptions excluded.
    mutating func addSynchronizedKey(
        _ key: String, tags: [String], folder: String, explicitFolders: [String], excluded: Set<String>,
        isExcluded: (String) -> Bool
    ) throws {
        let relative = XcodeProject.join(folder, key)
        if XcodeImporter.isVersionControl(key) {
            notes.append("'\(relative)' is version-control metadata, which Xcode never copies: left out")
            return
        }
        let absolute = FilePath(project.onDisk(relative))
        noteIfMissing(relative, source: "assetTagsByRelativePath")
        if key.slashSeparated().contains(where: { $0.hasSuffix(".xcassets") }) {
            add(relative, into: nil, tags, source: "assetTagsByRelativePath")
            return
        }
        guard SystemCall.status(absolute)?.kind == .directory else {
            add(
                relative, into: XcodeImporter.synchronizedDestination(of: key, explicitFolders: explicitFolders), tags,
                source: "assetTagsByRelativePath")
            return
        }
        // A tagged folder: entries that name it (or globs under it), so files added later get the tag too.
        let folderEntries = try XcodeImporter.folderEntries(
            key: key, absolute: absolute, explicitFolders: explicitFolders, excluded: isExcluded)
        if folderEntries.contains(where: { $0.glob == "/*" }) {
            notes.append(
                """
                '\(relative)' holds .lproj or explicit folders, which Xcode places apart: its entries name each \
                folder in it, so a folder added to it later needs an entry of its own (files added later to \
                its folders get the tag)
                """
            )
        }
        for entry in folderEntries {
            add(
                XcodeProject.join(folder, entry.path), glob: entry.glob, into: entry.into, tags,
                source: "assetTagsByRelativePath")
        }
        excludes.append((relative, "/**/.*"))
        excludes.append((relative, "/**/.*/**"))
        for path in excluded.sorted() where path.isPath(inside: key) {
            let below = String(decoding: path.utf8.dropFirst(key.utf8.count + 1), as: UTF8.self)
            let isFolder = SystemCall.status(absolute.joined(below))?.kind == .directory
            excludes.append((XcodeProject.join(folder, path), isFolder ? "/**" : ""))
        }
    }

    // MARK: Asset catalogs and what is left

    /// Asset catalog items tagged in their Contents.json: folders, at their raw paths (actool compiles them).
    mutating func readCatalogItems() throws {
        for catalog in Set(catalogs).sorted() {
            for (item, tags) in try XcodeImporter.catalogTags(FilePath(project.onDisk(catalog)), relative: catalog) {
                add(item, into: nil, tags, source: "Contents.json")
            }
        }
    }

    /// An untagged file of the resources phase that a tagged entry also packs: Xcode copies it into the app too,
    /// which a manifest cannot say, so the note tells.
    mutating func noteUntaggedCopies() {
        let taggedPaths = order.map { tagged[$0]!.path }
        for (path, into) in untaggedResources {
            if let entry = tagged[path], entry.glob == nil, entry.into == into {
                notes.append(
                    """
                    '\(path)' is in the resources phase both tagged and untagged; Xcode copies the untagged one into \
                    the app too, a manifest cannot say that
                    """
                )
            } else if let folder = taggedPaths.first(where: { path.isPath(inside: $0) }) {
                notes.append(
                    """
                    '\(path)' is also copied untagged to the app's \(XcodeImporter.describe(into)); the tagged folder \
                    '\(folder)' puts it in its pack too
                    """
                )
            }
        }
    }

    /// Notes on the build settings' tag lists: a quoted tag with a space is one tag in the manifest, and a tag no
    /// imported resource carries will be `tag-unknown` in plan.
    mutating func noteTagLists(initial: [String], prefetch: [String]) {
        for (list, key) in [
            (initial, "ON_DEMAND_RESOURCES_INITIAL_INSTALL_TAGS"), (prefetch, "ON_DEMAND_RESOURCES_PREFETCH_ORDER"),
        ] {
            for tag in list where tag.contains(where: \.isWhitespace) {
                notes.append("\(key) quotes the tag '\(tag)', which contains a space; in the manifest it is one tag")
            }
        }
        let used = Set(tagged.values.flatMap(\.tags))
        for tag in Set(initial + prefetch).subtracting(used).sorted() {
            notes.append(
                """
                tag '\(tag)' is in the build settings but no imported resource carries it: plan will report \
                tag-unknown
                """
            )
        }
    }
}
