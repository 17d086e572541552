import Foundation
import ODRPackCore
import ODRPackPlatform

/// Reads the On-Demand Resources tags an Xcode project already has and turns them into a tag manifest that makes
/// the packs Xcode makes, file for file at Xcode's paths (docs/xcode.md): every entry says where Copy Bundle Resources puts
/// its files (`into`), and resources-root is the deepest folder holding the project and every tagged file.
package struct XcodeImporter {
    package struct Options: Sendable {
        package var target: String?
        package var configuration = "Release"
        /// Build settings for the import, over the project's own values (`--setting NAME=VALUE`).
        package var settings: [String: String] = [:]

        package init() {}
    }

    /// The imported manifest, with where each part came from.
    package struct Result: Sendable {
        package struct Entry: Sendable {
            /// Relative to the project folder (it may start with `..`) until `resourcesRoot` is decided.
            package let path: String
            /// Set for a glob entry: what follows the path (`/**`, every file below it; `/*`, the files directly in
            /// it); the entry is then `glob:` the path with its glob characters escaped, then this.
            package var glob: String?
            /// The bundle folder the entry's files go to (docs/manifest.md#destinations): "" the root; nil for asset catalog items.
            package var into: String?
            package var tags: [String]
            package let sources: [String]
        }

        var projectName: String
        package let target: String
        package let configuration: String
        package let bundleID: String
        /// `ios` or `tvos` from SDKROOT; nil when the project does not say.
        package var profile: String?
        /// The deepest folder holding the project folder and every tagged file (absolute).
        package let resourcesRoot: FilePath
        /// Paths relative to `resourcesRoot`.
        package let entries: [Entry]
        /// Globs of files no entry may pack (`exclude`): a synchronized folder's `membershipExceptions` and hidden
        /// files inside a tagged folder, relative to `resourcesRoot`.
        package let excludes: [String]
        package let initialInstall: [String]
        package let prefetchOrder: [String]
        package let notes: [String]
        /// Warnings about the project (`import-path-outside`), printed as every command prints its diagnostics.
        package let diagnostics: [Diagnostic]
    }

    package let options: Options

    package init(options: Options) { self.options = options }

    /// Imports the target's tags: the project is checked, then its three places for tags are read in order
    /// (`TargetTags`), then the entries are placed under resources-root. Every note is kept in the order found.
    package func importProject(at path: String) throws -> Result {
        let project = try XcodeProject(path: path)
        let (targetID, target) = try chooseTarget(project)
        let targetName = target["name"] as? String ?? targetID
        let settings = try buildSettings(project, target: target, targetName: targetName)
        let profile = try Self.profile(settings, targetName: targetName)
        try checkImportable(project, settings: settings, targetName: targetName)
        var found = TargetTags(project: project)
        try found.readResourcesPhase(of: target)
        try found.readSynchronizedFolders(of: target, targetID: targetID)
        try found.readCatalogItems()
        found.noteUntaggedCopies()
        let initial = Self.tagList(settings["ON_DEMAND_RESOURCES_INITIAL_INSTALL_TAGS"])
        let prefetch = Self.tagList(settings["ON_DEMAND_RESOURCES_PREFETCH_ORDER"])
        found.noteTagLists(initial: initial, prefetch: prefetch)
        if profile == nil {
            found.notes.append(
                """
                the target's SDKROOT names neither iphoneos nor appletvos: no profile is set; add 'profile: ios' or \
                'profile: tvos'
                """
            )
        }
        guard let bundleID = settings["PRODUCT_BUNDLE_IDENTIFIER"], !bundleID.isEmpty else {
            throw ODRPackError.xcode(
                .missingBundleIdentifier(target: targetName, configuration: options.configuration))
        }
        let placed = Self.placed(found)
        return Result(
            projectName: project.bundlePath.name, target: targetName, configuration: options.configuration,
            bundleID: bundleID, profile: profile, resourcesRoot: FilePath(placed.root),
            entries: placed.entries, excludes: placed.excludes, initialInstall: initial, prefetchOrder: prefetch,
            notes: found.notes, diagnostics: Self.outsideDiagnostics(found.outside))
    }

    /// A target Xcode makes no asset packs for (ENABLE_ON_DEMAND_RESOURCES = NO), or a project whose groups contain
    /// each other, is refused before anything is read.
    func checkImportable(_ project: XcodeProject, settings: [String: String], targetName: String) throws {
        if let enabled = settings["ENABLE_ON_DEMAND_RESOURCES"], ["NO", "FALSE", "0"].contains(enabled.uppercased()) {
            throw ODRPackError.xcode(
                .onDemandResourcesDisabled(target: targetName, configuration: options.configuration))
        }
        if let cycle = project.groupCycle() {
            throw ODRPackError.xcode(.groupCycle(project: project.bundlePath.name, cycle: cycle))
        }
    }

    /// resources-root (the deepest folder holding the project folder and every tagged file), and the entries and
    /// excludes relative to it, the entries sorted by path, then glob, by code point.
    static func placed(_ found: TargetTags) -> (root: String, entries: [Result.Entry], excludes: [String]) {
        let project = found.project
        let gathered = found.entries
        let root = commonFolder(
            [project.sourceRoot.string]
                + gathered.map { XcodeProject.normalized(project.onDisk($0.path)) })
        func rooted(_ path: String) -> String {
            XcodeProject.relative(XcodeProject.normalized(project.onDisk(path)), from: root)
        }
        let entries = gathered.map { entry in
            Result.Entry(
                path: rooted(entry.path), glob: entry.glob, into: entry.into, tags: entry.tags.sorted(),
                sources: entry.sources)
        }.sorted {
            $0.path.hasSameBytes(as: $1.path)
                ? ($0.glob ?? "").precedesByCodePoint($1.glob ?? "") : $0.path.precedesByCodePoint($1.path)
        }
        return (root, entries, found.excludes.map { escapedGlob(rooted($0.path)) + $0.glob })
    }

    /// `import-path-outside` for each dropped key, by kind, then folder and key by code point.
    static func outsideDiagnostics(_ outside: [(kind: String, key: String, folder: String)]) -> [Diagnostic] {
        outside.sorted {
            $0.kind == $1.kind
                ? ($0.folder.hasSameBytes(as: $1.folder)
                    ? $0.key.precedesByCodePoint($1.key) : $0.folder.precedesByCodePoint($1.folder))
                : $0.kind < $1.kind
        }.map { kind, key, folder in
            Diagnostic.warning(
                .importPathOutside,
                """
                \(kind) key '\(key)' of synchronized folder '\(folder)' reaches outside it, where Xcode never applies \
                it: dropped; name a path inside '\(folder)'
                """,
                subject: key)
        }
    }

    /// A synchronized folder's key with a `..` component or an absolute path: Xcode applies such a key to nothing,
    /// since it names no path inside the folder (docs/xcode.md), so it must not widen resources-root either.
    static func reachesOutside(_ key: String) -> Bool {
        key.hasPrefix("/") || key.slashSeparated().contains { $0 == ".." }
    }

    /// Version-control metadata (`VersionControl`), at any depth of `path`: Xcode never copies it, so no entry names it.
    static func isVersionControl(_ path: String) -> Bool {
        VersionControl.containsFolderName(path)
    }

    /// `path` as a glob that matches exactly it: `\` before every `*`, `?`, `[` and `\`.
    static func escapedGlob(_ path: String) -> String {
        var out = ""
        for character in path {
            if "*?[\\".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// The entries that give every file under the synchronized folder's tagged folder `key` Xcode's destination, now
    /// and later (docs/xcode.md): a folder with no `.lproj` or explicit folder below it is one glob `key/**` at the
    /// bundle's root (Xcode flattens it); an explicit folder is a `path` entry that keeps its name; a `.lproj` folder's
    /// own files go to it (`/*`); other folders above those get `/*` for their own files and the same look at each
    /// folder inside. Only the folders are read today, hidden, version-control and `excluded` ones left out.
    static func folderEntries(
        key: String, absolute: FilePath, explicitFolders: [String], excluded: (String) -> Bool = { _ in false }
    ) throws
        -> [(path: String, glob: String?, into: String)]
    {
        func explicitFolder(of folder: String) -> String? {
            explicitFolders.first { folder.isPath(inside: $0, orIsIt: true) }
        }
        func name(_ path: String) -> String { String(path.slashSeparated().last ?? "") }
        var children: [String: [String]] = [:]
        // Folders with a .lproj or explicit folder below them, which one glob cannot place.
        var split = Set<String>()
        let folders = try FolderWalk.entries(
            under: absolute, skipping: { $0.hasPrefix(".") || VersionControl.isFolderName($0) }
        ).filter { $0.status.kind == .directory }.map { key.slashJoined($0.path) }.filter { !excluded($0) }
        for folder in folders {
            let parent = String(folder.splitAtLastSlash()!.folder)
            children[parent, default: []].append(folder)
            guard folder.hasSuffix(".lproj") || explicitFolders.contains(folder) else { continue }
            var above = parent
            while above.count >= key.count, split.insert(above).inserted, let parts = above.splitAtLastSlash() {
                above = String(parts.folder)
            }
        }
        var entries: [(path: String, glob: String?, into: String)] = []
        var stack = [key]
        while let folder = stack.popLast() {
            if let explicit = explicitFolder(of: folder) {
                // The folder keeps its name under the explicit folder's, as the files inside it do.
                let between =
                    folder == explicit ? [] : folder.dropFirst(explicit.count + 1).slashSeparated().dropLast()
                let into =
                    folder == explicit ? "" : ([name(explicit)] + between.map(String.init)).joined(separator: "/")
                entries.append((folder, nil, into))
                continue
            }
            let isLanguage = name(folder).hasSuffix(".lproj")
            guard isLanguage || split.contains(folder) else {
                entries.append((folder, "/**", ""))
                continue
            }
            entries.append((folder, "/*", isLanguage ? name(folder) : ""))
            stack += (children[folder] ?? []).reversed()
        }
        return entries
    }

    static func describe(_ into: String?) -> String {
        guard let into else { return "its own path (an asset catalog item)" }
        return into.isEmpty ? "bundle root" : "'\(into)' folder"
    }

    /// A variant group's file goes to its `<language>.lproj`: the folder it is in, else its name (`en`) + `.lproj`.
    static func languageFolder(of path: String, name: String?) -> String {
        let parts = path.slashSeparated()
        if parts.count >= 2, parts[parts.count - 2].hasSuffix(".lproj") { return String(parts[parts.count - 2]) }
        return (name.flatMap { $0.isEmpty || $0.contains("/") ? nil : $0 } ?? "Base") + ".lproj"
    }

    /// Where a file of a synchronized folder goes, from its path in that folder: into an explicit folder it is in
    /// (keeping that folder's name and what is below it), into its `.lproj` folder, else the bundle's root.
    static func synchronizedDestination(of file: String, explicitFolders: [String]) -> String {
        let parts = file.slashSeparated().map(String.init)
        if let folder = explicitFolders.first(where: { file.isPath(inside: $0) }) {
            let name = String(folder.slashSeparated().last ?? "")
            let below = file.dropFirst(folder.count + 1).slashSeparated().dropLast()
            return ([name] + below.map(String.init)).joined(separator: "/")
        }
        if parts.count >= 2, parts[parts.count - 2].hasSuffix(".lproj") { return parts[parts.count - 2] }
        return ""
    }

    /// The deepest folder that holds every one of these absolute paths (the first is a folder itself).
    static func commonFolder(_ paths: [String]) -> String {
        var common = paths[0].slashSeparated().map(String.init)
        for path in paths.dropFirst() {
            let parts = path.slashSeparated().map(String.init)
            var length = 0
            while length < min(common.count, parts.count) && common[length] == parts[length] { length += 1 }
            // A file's own name is never its folder.
            if length == parts.count { length -= 1 }
            common = Array(common.prefix(length))
        }
        return "/" + common.joined(separator: "/")
    }

    // MARK: Targets and settings

    func chooseTarget(_ project: XcodeProject) throws -> (String, XcodeProject.Object) {
        let targets = project.targets
        let names = targets.map { $0.object["name"] as? String ?? $0.id }
        let chosen: (id: String, object: XcodeProject.Object)
        if let wanted = options.target {
            guard let found = targets.first(where: { ($0.object["name"] as? String) == wanted }) else {
                throw ODRPackError.usage(
                    "no target '\(wanted)' in the project: its targets are \(names.joined(separator: ", "))")
            }
            chosen = found
        } else {
            let applications = targets.filter { Self.isApplication($0.object) }
            if applications.count == 1 {
                chosen = applications[0]
            } else if applications.isEmpty && targets.count == 1 {
                chosen = targets[0]
            } else {
                let listed = (applications.isEmpty ? names : applications.map { $0.object["name"] as? String ?? $0.id })
                throw ODRPackError.usage(
                    """
                    the project has \(applications.isEmpty ? targets.count : applications.count) \
                    \(applications.isEmpty ? "targets" : "application targets"): choose one with --target \
                    (\(listed.joined(separator: ", ")))
                    """
                )
            }
        }
        guard Self.isApplication(chosen.object) else {
            let type =
                chosen.object["productType"] as? String
                ?? "no product type (\(chosen.object["isa"] as? String ?? "an unknown kind of target"))"
            throw ODRPackError.xcode(
                .notAnApplication(target: chosen.object["name"] as? String ?? chosen.id, productType: type))
        }
        return chosen
    }

    /// `com.apple.product-type.application` and its `application.*` kinds (App Clips, watch apps' hosts, messages).
    static func isApplication(_ target: XcodeProject.Object) -> Bool {
        let type = target["productType"] as? String ?? ""
        return type == "com.apple.product-type.application" || type.hasPrefix("com.apple.product-type.application.")
    }

    /// `ios` or `tvos` from the target's platform (docs/xcode.md); nil when it names none; exit 2 for another platform only.
    static func profile(_ settings: [String: String], targetName: String) throws -> String? {
        let sdk = (settings["SDKROOT"] ?? "").lowercased()
        let supported = (settings["SUPPORTED_PLATFORMS"] ?? "").lowercased().split(whereSeparator: \.isWhitespace)
        func platforms(_ name: String) -> [String] {
            if name.hasPrefix("iphoneos") || name.hasPrefix("iphonesimulator") { return ["ios"] }
            if name.hasPrefix("appletv") { return ["tvos"] }
            return []
        }
        if !sdk.isEmpty && sdk != "auto" {
            if let profile = platforms(sdk).first { return profile }
            throw ODRPackError.xcode(.unsupportedSDK(target: targetName, sdk: settings["SDKROOT"]!))
        }
        if supported.contains(where: { platforms(String($0)) == ["ios"] }) { return "ios" }
        if supported.contains(where: { platforms(String($0)) == ["tvos"] }) { return "tvos" }
        if !supported.isEmpty {
            throw ODRPackError.xcode(
                .unsupportedPlatforms(target: targetName, platforms: settings["SUPPORTED_PLATFORMS"]!))
        }
        return nil
    }

    /// The configuration's settings, lowest first: the project's xcconfig, the project's settings, the target's
    /// xcconfig, the target's settings, then `--setting`; `$(inherited)` is the layer below; references resolved.
    func buildSettings(_ project: XcodeProject, target: XcodeProject.Object, targetName: String) throws -> [String:
        String]
    {
        func configuration(of owner: XcodeProject.Object?) -> XcodeProject.Object? {
            let list = project[owner?["buildConfigurationList"] as? String ?? ""]
            return project.ids(list, "buildConfigurations").compactMap { project[$0] }.first {
                $0["name"] as? String == options.configuration
            }
        }
        guard let targetConfiguration = configuration(of: target) else {
            let list = project[target["buildConfigurationList"] as? String ?? ""]
            let names = project.ids(list, "buildConfigurations").compactMap { project[$0]?["name"] as? String }
            throw ODRPackError.xcode(
                .missingConfiguration(target: targetName, configuration: options.configuration, available: names))
        }
        var raw: [String: String] = [
            "TARGET_NAME": targetName, "PRODUCT_NAME": targetName,
            "PROJECT_NAME": project.bundlePath.stem ?? "",
            "CONFIGURATION": options.configuration, "SRCROOT": project.sourceRoot.string,
        ]
        func layer(_ values: [(String, String)]) {
            for (key, value) in values {
                raw[key] = value.replacingOccurrences(of: "$(inherited)", with: raw[key] ?? "")
                    .replacingOccurrences(of: "${inherited}", with: raw[key] ?? "").trimmingCharacters(in: .whitespaces)
            }
        }
        for owner in [configuration(of: project.rootObject), targetConfiguration] {
            if let reference = owner?["baseConfigurationReference"] as? String,
                case .success(let path) = project.path(of: reference)
            {
                var seen = Set<String>()
                layer(Self.xcconfig(project.sourceRoot.joined(path), seen: &seen))
            }
            layer(
                (owner?["buildSettings"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key }.compactMap { key, value in
                    if let text = value as? String { return (key, text) }
                    if let list = value as? [String] {
                        return (key, list.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " "))
                    }
                    return nil
                })
        }
        for (key, value) in options.settings { raw[key] = value }
        var resolved: [String: String] = [:]
        for key in [
            "PRODUCT_BUNDLE_IDENTIFIER", "ON_DEMAND_RESOURCES_INITIAL_INSTALL_TAGS",
            "ON_DEMAND_RESOURCES_PREFETCH_ORDER",
            "SDKROOT", "SUPPORTED_PLATFORMS", "ENABLE_ON_DEMAND_RESOURCES",
        ] {
            guard let value = raw[key] else { continue }
            resolved[key] = try Self.expand(
                value, settings: raw, setting: key, configuration: options.configuration, depth: 0)
        }
        return resolved
    }

    /// The unconditional `NAME = VALUE` lines of an xcconfig file and of what it `#include`s, in order. Conditional
    /// settings (`NAME[sdk=...]`) are left out: they depend on the build.
    static func xcconfig(_ file: FilePath, seen: inout Set<String>) -> [(String, String)] {
        guard seen.insert(XcodeProject.normalized(file.string)).inserted, seen.count < 64,
            let text = try? String(contentsOf: URL(fileURLWithPath: file.string), encoding: .utf8)
        else { return [] }
        var values: [(String, String)] = []
        for rawLine in text.split(whereSeparator: \.isNewline) {
            var line = String(rawLine)
            if let comment = line.range(of: "//") { line = String(line[..<comment.lowerBound]) }
            line = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#include") {
                let quoted = line.split(separator: "\"")
                if quoted.count >= 2 {
                    values += xcconfig(file.removingLastComponent().joined(String(quoted[1])), seen: &seen)
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
            values.append((name, line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)))
        }
        return values
    }

    /// Expands `$(NAME)`, `${NAME}` and `$NAME`, with the `:rfc1034identifier`, `:lower` and `:upper` operators.
    static func expand(_ value: String, settings: [String: String], setting: String, configuration: String, depth: Int)
        throws -> String
    {
        guard depth < 16 else {
            throw ODRPackError.xcode(.settingCycle(setting: setting))
        }
        let pattern =
            /\$(?:\(([A-Za-z0-9_]+)((?::[A-Za-z0-9_]+)*)\)|\{([A-Za-z0-9_]+)((?::[A-Za-z0-9_]+)*)\}|([A-Za-z_][A-Za-z0-9_]*))/
        var result = ""
        var rest = value[...]
        while let match = rest.firstMatch(of: pattern) {
            result += rest[..<match.range.lowerBound]
            let name = String(match.output.1 ?? match.output.3 ?? match.output.5 ?? "")
            let operators = String(match.output.2 ?? match.output.4 ?? "").split(separator: ":")
            guard let raw = settings[name] else {
                throw ODRPackError.xcode(.undefinedSetting(setting: setting, uses: name, configuration: configuration))
            }
            var expanded = try expand(
                raw, settings: settings, setting: setting, configuration: configuration, depth: depth + 1)
            for op in operators {
                switch op {
                case "rfc1034identifier":
                    expanded = String(
                        expanded.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" }
                    )
                case "lower": expanded = expanded.lowercased()
                case "upper": expanded = expanded.uppercased()
                case "identifier", "c99extidentifier":
                    expanded = String(expanded.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
                default: break
                }
            }
            result += expanded
            rest = rest[match.range.upperBound...]
        }
        return result + rest
    }

    /// Splits a space-separated setting; double or single quotes keep spaces inside one tag.
    static func tagList(_ value: String?) -> [String] {
        guard let value else { return [] }
        var tags: [String] = []
        var current = ""
        var quote: Character?
        var hasToken = false
        for character in value {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                hasToken = true
            } else if character.isWhitespace {
                if hasToken { tags.append(current) }
                current = ""
                hasToken = false
            } else {
                current.append(character)
                hasToken = true
            }
        }
        if hasToken { tags.append(current) }
        return tags.filter { !$0.isEmpty }
    }

    // MARK: Asset catalogs

    static func findCatalogs(in folder: FilePath, relative: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: folder.string) else { return [] }
        let isCatalog = { (entry: FolderWalk.Entry) in entry.name.hasSuffix(".xcassets") }
        return try FolderWalk.entries(under: folder, entering: { !isCatalog($0) }).filter(isCatalog).map {
            XcodeProject.join(relative, $0.path)
        }
    }

    /// Every item folder of a catalog whose Contents.json names on-demand resource tags.
    static func catalogTags(_ catalog: FilePath, relative: String) throws -> [(String, [String])] {
        guard FileManager.default.fileExists(atPath: catalog.string) else { return [] }
        var found: [(String, [String])] = []
        for entry in try FolderWalk.entries(under: catalog) where entry.name == "Contents.json" {
            // The catalog's own Contents.json describes the catalog, not an item.
            guard entry.path != entry.name else { continue }
            let file = catalog.joined(entry.path)
            let data = FileManager.default.contents(atPath: file.string) ?? Data()
            let json: Any
            do { json = try JSONSerialization.jsonObject(with: data) } catch {
                throw ODRPackError.xcode(.invalidCatalogJSON(file))
            }
            let object = json as? [String: Any] ?? [:]
            var tags: [String] = []
            for key in ["properties", "info"] {
                tags += (object[key] as? [String: Any])?["on-demand-resource-tags"] as? [String] ?? []
            }
            if !tags.isEmpty {
                found.append(
                    (
                        XcodeProject.join(relative, String(entry.path.dropLast(entry.name.count + 1))),
                        Array(Set(tags)).sorted()
                    ))
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }
}
