import Foundation
import ODRPackPlatform
import Yams

/// Reads a tag manifest (YAML or JSON) and reports every problem with its file, line and column.
package struct ManifestLoader {
    static let topLevelKeys = [
        "version", "bundle-id", "resources-root", "profile", "resources",
        "initial-install", "prefetch-order", "exclude", "untagged", "limits", "background-assets", "tags", "allow",
    ]
    static let entryKeys = ["path", "glob", "tags", "into", "language", "platforms", "allow"]

    package init() {}

    /// The largest manifest read: far more than a manifest of the store's maximum (docs/build-output.md#bounded).
    package static let maximumBytes = 64 << 20

    /// Loads the manifest at `path`; returns nil with diagnostics when it cannot be used.
    /// - Throws: `ODRPackError.manifest`, `.io` or `.fileTooLarge` when the file cannot be read at all (exit 2).
    package func load(path: String) throws -> (manifest: TagManifest?, diagnostics: [Diagnostic]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ODRPackError.manifest(.missing(path))
        }
        if isDirectory.boolValue {
            // A build folder (it holds odrpack-manifest.json) is what build wrote, not what it reads.
            if FileManager.default.fileExists(atPath: FilePath(path).joined("odrpack-manifest.json").string) {
                throw ODRPackError.manifest(.isBuildFolder(path))
            }
            throw ODRPackError.manifest(.isFolder(path))
        }
        guard let file = FilePath(checking: path) else {
            throw ODRPackError.manifest(.pathHoldsNul(path))
        }
        // Read by its path as given (no URL: a current folder of any length works) and bounded
        // (docs/build-output.md#bounded).
        let data = Data(try BoundedFile.read(file, limit: Self.maximumBytes, what: "the manifest"))
        // The manifest's folder, absolute: relative to the current folder, `.` and `..` folded.
        let current: FilePath
        switch LocalFileSystem().currentFolder() {
        case .success(let folder): current = folder
        case .failure(let error):
            guard file.isAbsolute else {
                throw ODRPackError.manifest(.currentFolderUnnamed(error))
            }
            current = "/"
        }
        let directory = current.pushing(file).removingLastComponent().normalized
        return parse(data: data, displayPath: path, directory: directory)
    }

    /// `parse` with the manifest's folder as a URL (the fuzz entry point's call).
    package func parse(data: Data, displayPath: String, directory: URL) -> (
        manifest: TagManifest?, diagnostics: [Diagnostic]
    ) {
        parse(data: data, displayPath: displayPath, directory: FilePath(directory.path))
    }

    /// Parses manifest text; pure, so tests can feed it strings.
    package func parse(data: Data, displayPath: String, directory: FilePath) -> (
        manifest: TagManifest?, diagnostics: [Diagnostic]
    ) {
        var parser = Parsing(file: displayPath)
        guard let text = String(data: data, encoding: .utf8) else {
            parser.error(.manifestSyntax, "the manifest is not UTF-8 text: save it as UTF-8", at: nil)
            return (nil, parser.diagnostics)
        }
        // Aliases bounded before Yams composes the document (docs/manifest.md#yaml).
        if let exceeded = YAMLAliasBudget.check(text) {
            parser.error(
                .manifestSyntax,
                """
                the alias *\(exceeded.anchor) makes the manifest's aliases expand to more than \
                \(YAMLAliasBudget.maximumNodes) values (aliases of aliases double at every level): write the values \
                out, or nest fewer aliases
                """,
                at: SourceLocation(file: displayPath, line: exceeded.line, column: exceeded.column))
            return (nil, parser.diagnostics)
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            parser.yamlError(error, text: text)
            return (nil, parser.diagnostics)
        } catch {
            parser.error(.manifestSyntax, "the manifest is not valid YAML: \(error)", at: nil)
            return (nil, parser.diagnostics)
        }
        parser.text = text
        let manifest = parser.manifest(from: root, directory: directory)
        // In the order they appear in the file, like a compiler.
        let ordered = parser.diagnostics.enumerated().sorted {
            let a = $0.element.location
            let b = $1.element.location
            return (a?.line ?? 0, a?.column ?? 0, $0.offset) < (b?.line ?? 0, b?.column ?? 0, $1.offset)
        }.map(\.element)
        // A path or glob outside resources-root drops only its entry: every other problem is found in the same run.
        let stops = parser.diagnostics.contains { $0.severity == .error && $0.code != .pathOutsideRoot }
        return (stops ? nil : manifest, ordered)
    }
}

/// The state of one parse: the diagnostics found so far.
private struct Parsing {
    let file: String
    var diagnostics: [Diagnostic] = []
    /// The tags of the entry just read, kept when the entry is dropped for an error of its own.
    var droppedTags: [String] = []
    /// The manifest's text, for the fix of a value YAML read as something else than the text written.
    var text = ""
    /// The `allow` lists read so far (docs/manifest.md#allowed-warnings).
    var allow = AllowList()
    /// The known keys the last mapping of each context (`keyedPairs`) lacks but has a misspelling of (`tag:` for
    /// `tags:`): the did-you-mean of the unknown key is their one error, not also a missing key.
    var misspelt: [String: Set<String>] = [:]

    init(file: String) { self.file = file }

    func location(_ node: Node?) -> SourceLocation? {
        guard let mark = node?.mark else { return nil }
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    mutating func error(_ code: DiagnosticCode, _ message: String, at location: SourceLocation?, subject: String? = nil)
    {
        diagnostics.append(
            .error(code, message, at: location ?? SourceLocation(file: file, line: 1, column: 1), subject: subject))
    }

    mutating func warning(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation?, subject: String? = nil
    ) {
        diagnostics.append(
            .warning(code, message, at: location ?? SourceLocation(file: file, line: 1, column: 1), subject: subject))
    }

    /// libyaml's problem at its file:line:column, then the fix when the text there shows a common cause
    /// (`YAMLSyntaxHint`); a duplicate key at its second occurrence.
    mutating func yamlError(_ error: YamlError, text: String) {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let contextText = context.map { " \($0.text)" } ?? ""
            let hint = YAMLSyntaxHint.fix(text: text, line: mark.line, contextLine: context?.mark.line)
            self.error(
                .manifestSyntax, "invalid YAML: \(problem)\(contextText)\(hint.map { ": \($0)" } ?? "")",
                at: SourceLocation(file: file, line: mark.line, column: mark.column))
        case .reader(let problem, let offset, _, _):
            self.error(.manifestSyntax, "invalid YAML: \(problem)\(offset.map { " at byte \($0)" } ?? "")", at: nil)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let second = duplicates.sorted().lazy.compactMap { YAMLSyntaxHint.secondOccurrence(of: $0, in: text) }.first
            self.error(
                .manifestSyntax,
                "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in one mapping: keep one",
                at: SourceLocation(
                    file: file, line: second?.line ?? context.mark.line, column: second?.column ?? context.mark.column))
        default:
            self.error(.manifestSyntax, "invalid YAML: \(error)", at: nil)
        }
    }

    // MARK: Top level

    /// The manifest, key by key in a fixed order: every problem is reported (`parse` then sorts them by location, so
    /// this order only settles ties); nil when the document is no tag manifest or an error leaves it unusable.
    mutating func manifest(from root: Node?, directory: FilePath) -> TagManifest? {
        guard case (let root, let mapping)? = topLevelMapping(root) else { return nil }
        let pairs = keyedPairs(mapping, known: ManifestLoader.topLevelKeys, context: "the manifest")
        var manifest = TagManifest(displayPath: file, directory: directory, bundleID: "")
        checkVersion(pairs["version"]?.value, root: root)
        if let bundleID = bundleID(pairs["bundle-id"]?.value, root: root) { manifest.bundleID = bundleID }
        if let node = pairs["resources-root"]?.value, let value = resourcesRoot(node) {
            manifest.resourcesRoot = .init(value, at: location(node))
        }
        if let node = pairs["profile"]?.value, let value = profile(node) {
            manifest.profile = .init(value, at: location(node))
        }
        var usable = true
        if let node = pairs["resources"]?.value { usable = readEntries(node, into: &manifest) }
        manifest.initialInstall = tagList(pairs["initial-install"]?.value, key: "initial-install")
        manifest.prefetchOrder = tagList(pairs["prefetch-order"]?.value, key: "prefetch-order")
        if let node = pairs["tags"]?.value { manifest.declaredTags = tagList(node, key: "tags") }
        checkTagLists(initial: manifest.initialInstall, prefetch: manifest.prefetchOrder)
        if let node = pairs["exclude"]?.value { manifest.exclude += excludePatterns(node) }
        if let node = pairs["untagged"]?.value, let policy = untaggedPolicy(node) { manifest.untagged = policy }
        if let node = pairs["limits"]?.value { manifest.limitOverrides = limits(node) }
        if let node = pairs["background-assets"]?.value { manifest.backgroundAssets = backgroundAssets(node) }
        if let node = pairs["allow"]?.value { allow.codes = allowedCodes(node) }
        manifest.allow = allow
        checkEntryPlatforms(manifest)
        manifest.keyLocations = pairs.mapValues { location($0.key) }.compactMapValues { $0 }
        return usable ? manifest : nil
    }

    /// The document's top-level mapping, or nil with one error: an empty document, something else than a mapping, or
    /// a build manifest given where a tag manifest is expected (`odrpack report build/odrpack-manifest.json`), which
    /// gets one error saying what it is, not one per key it has.
    mutating func topLevelMapping(_ root: Node?) -> (Node, Node.Mapping)? {
        guard let root, !(root.scalar.map(isNull) ?? false) else {
            error(.manifestMissingKey, "the manifest is empty: it needs at least 'version: 1' and 'bundle-id'", at: nil)
            return nil
        }
        guard let mapping = root.mapping else {
            error(
                .manifestSyntax,
                "the manifest must be a mapping of keys (version, bundle-id, resources, ...), not \(kind(of: root))",
                at: location(root))
            return nil
        }
        let keys = Set(mapping.compactMap { $0.key.scalar?.string })
        // Two keys only a build manifest has, and none a tag manifest needs: a whole, partial or `--json` one.
        let buildKeys: Set = ["schemaVersion", "bundleId", "packs", "totals", "appBundle", "initialInstallTags"]
        if keys.isDisjoint(with: ["version", "bundle-id", "resources"]) && keys.intersection(buildKeys).count >= 2 {
            let what =
                keys.contains("diagnostics")
                ? "an odrpack --json document (what plan, validate or build print)"
                : "a build manifest (the odrpack-manifest.json that build writes)"
            error(
                .manifestSyntax,
                """
                '\(file)' is \(what), not a tag manifest: pass the odrpack.yml it was built from (report, diff, \
                verify, thin, ipa, upload, submit and status take a build folder)
                """,
                at: nil)
            return nil
        }
        return (root, mapping)
    }

    /// `version` must be there and be the integer 1 (missing, it is reported at the top-level mapping).
    mutating func checkVersion(_ version: Node?, root: Node) {
        guard let version else {
            if misspelt["the manifest"]?.contains("version") != true {
                error(.manifestMissingKey, "missing key 'version': add 'version: 1'", at: location(root))
            }
            return
        }
        guard let scalar = version.scalar, version.tag.rawValue == Tag.Name.int.rawValue,
            let number = Int(scalar.string)
        else {
            error(.manifestSyntax, "'version' must be the integer 1, not \(kind(of: version))", at: location(version))
            return
        }
        if number != 1 {
            error(
                .manifestInvalidValue, "unsupported manifest version \(number): this odrpack reads version 1",
                at: location(version))
        }
    }

    /// `bundle-id`, when it is there and a reverse-DNS identifier (missing, it is reported at the top-level mapping).
    mutating func bundleID(_ node: Node?, root: Node) -> String? {
        guard let node else {
            if misspelt["the manifest"]?.contains("bundle-id") != true {
                error(
                    .manifestMissingKey,
                    "missing key 'bundle-id': add your app's bundle identifier, e.g. 'bundle-id: com.example.game'",
                    at: location(root))
            }
            return nil
        }
        guard let bundleID = string(node, key: "bundle-id") else { return nil }
        guard BundleIdentifier.isValid(bundleID) else {
            error(
                .manifestInvalidValue,
                """
                bundle id '\(bundleID)' is not a reverse-DNS identifier: use letters, digits, '-' and '.', \
                like com.example.game
                """,
                at: location(node), subject: bundleID)
            return nil
        }
        return bundleID
    }

    /// `resources-root` as written, unless it is empty or holds a NUL (no folder has such a name).
    mutating func resourcesRoot(_ node: Node) -> String? {
        guard let value = string(node, key: "resources-root") else { return nil }
        if value.isEmpty {
            error(
                .manifestInvalidValue,
                "'resources-root' is empty: name a folder, or '.' for the manifest's folder", at: location(node))
            return nil
        }
        if value.utf8.contains(0) {
            error(
                .manifestInvalidValue,
                "'resources-root' holds a NUL character, which no folder name can: remove it",
                at: location(node))
            return nil
        }
        return value
    }

    /// `profile`, when it names a known limit profile; else an error with the closest name.
    mutating func profile(_ node: Node) -> String? {
        guard let value = string(node, key: "profile") else { return nil }
        guard LimitProfile.named(value) != nil else {
            let hint = Suggestion.closest(to: value, in: LimitProfile.names).map { " (did you mean '\($0)'?)" } ?? ""
            error(
                .manifestInvalidValue,
                "unknown profile '\(value)'\(hint): use one of \(LimitProfile.names.joined(separator: ", "))",
                at: location(node))
            return nil
        }
        return value
    }

    /// The `resources` list's entries, into `manifest`; a dropped entry's tags are kept as unresolved, so that lists
    /// naming them do not also report them unknown. False when `resources` is no list (the manifest is unusable).
    mutating func readEntries(_ node: Node, into manifest: inout TagManifest) -> Bool {
        guard let sequence = node.sequence else {
            if isNullNode(node) { return true }
            error(
                .manifestSyntax,
                "'resources' must be a list of entries (- path: ... tags: [...]), not \(kind(of: node))",
                at: location(node))
            return false
        }
        for item in sequence {
            if let entry = entry(from: item) {
                manifest.entries.append(entry)
            } else {
                manifest.unresolvedEntryTags.formUnion(droppedTags)
            }
        }
        return true
    }

    /// The usable `exclude` patterns: an empty one, one with a NUL, or one that reaches outside resources-root is an
    /// error and left out.
    mutating func excludePatterns(_ node: Node) -> [TagManifest.Located<String>] {
        var patterns: [TagManifest.Located<String>] = []
        for item in stringList(node, key: "exclude") {
            if item.value.isEmpty {
                error(.manifestInvalidValue, "an empty 'exclude' pattern matches nothing: remove it", at: item.location)
            } else if item.value.utf8.contains(0) {
                error(
                    .manifestInvalidValue,
                    """
                    exclude pattern '\(item.value.debugDescription.dropFirst().dropLast())' holds a NUL character: \
                    remove it
                    """,
                    at: item.location)
            } else if let problem = RelativePath.outsideRootProblem(item.value) {
                error(
                    .pathOutsideRoot, "exclude pattern '\(item.value)' \(problem)", at: item.location,
                    subject: item.value)
            } else {
                patterns.append(item)
            }
        }
        return patterns
    }

    /// `untagged`: `count` or `ignore`; anything else is an error with the closest of the two.
    mutating func untaggedPolicy(_ node: Node) -> TagManifest.UntaggedPolicy? {
        guard let value = string(node, key: "untagged") else { return nil }
        guard let policy = TagManifest.UntaggedPolicy(rawValue: value) else {
            let hint = Suggestion.closest(to: value, in: ["count", "ignore"]).map { " (did you mean '\($0)'?)" } ?? ""
            error(
                .manifestInvalidValue,
                """
                'untagged' is '\(value)'\(hint): use 'count' (untagged files stay in the app and are counted) or \
                'ignore' (only tagged files matter)
                """,
                at: location(node), subject: value)
            return nil
        }
        return policy
    }

    // MARK: Entries

    /// One `resources` entry: its selector, its tags and its `into`, each checked on its own so that one entry
    /// reports all its problems; nil when any of them is unusable (`droppedTags` then holds its tags).
    mutating func entry(from node: Node) -> TagManifest.Entry? {
        guard let mapping = node.mapping else {
            error(
                .manifestSyntax,
                "a 'resources' entry must be a mapping with 'path' or 'glob' and 'tags', not \(kind(of: node))",
                at: location(node))
            return nil
        }
        let pairs = keyedPairs(mapping, known: ManifestLoader.entryKeys, context: "a resources entry")
        let (selector, selectorLocation) = selector(path: pairs["path"]?.value, glob: pairs["glob"]?.value, of: node)
        let tags = entryTags(pairs["tags"]?.value, of: node)
        var into: (folder: String?, usable: Bool) = (nil, true)
        if let node = pairs["into"]?.value { into = destinationFolder(node) }
        if let list = pairs["allow"]?.value {
            allow.allow(allowedCodes(list), at: [location(node), selectorLocation] + tags.map(\.location))
        }
        let language = pairs["language"].map { entryLanguage($0.value) }
        let languageComponent = selector.map { languagePlaceholder($0, at: selectorLocation) } ?? .some(nil)
        if let language = language ?? nil, case .some(.some) = languageComponent {
            error(
                .languageInvalid,
                """
                the entry has both 'language: \(language.value)' and '{language}' in its path: the folders at \
                '{language}' name their files' language, so remove 'language' (or name one folder without \
                '{language}')
                """,
                at: language.location, subject: language.value)
        }
        let platforms = pairs["platforms"].map { entryPlatforms($0.value) }
        droppedTags = tags.map(\.value)
        guard let selector, !tags.isEmpty, into.usable, language.map({ $0 != nil }) ?? true,
            case .some(let component) = languageComponent, platforms.map({ $0 != nil }) ?? true
        else { return nil }
        var entry = TagManifest.Entry(
            selector: selector, selectorLocation: selectorLocation, tags: tags, into: into.folder)
        entry.language = language ?? nil
        entry.languageComponent = component
        entry.platforms = platforms ?? nil
        return entry
    }

    /// The entry's `language` in canonical case (docs/background-assets.md#languages); nil, its error raised, when it
    /// is not a BCP 47 tag of language, script and region subtags.
    mutating func entryLanguage(_ node: Node) -> TagManifest.Located<String>? {
        guard let text = string(node, key: "language") else { return nil }
        guard let canonical = LanguageTag.canonical(text) else {
            let underscored = LanguageTag.canonical(text.replacingOccurrences(of: "_", with: "-"))
            error(
                .languageInvalid,
                """
                language '\(text)' is not a BCP 47 language tag of language, script and region subtags \
                (\(underscored.map { "write '\($0)'" } ?? "e.g. fr, pt-BR, zh-Hant")): no variant, extension or \
                private-use subtag
                """,
                at: location(node), subject: text)
            return nil
        }
        return .init(canonical, at: location(node))
    }

    /// Where `{language}` stands in `selector` (a component index), nil when nowhere; `.none`, its error raised, when
    /// it is part of a component or written more than once (docs/background-assets.md#languages).
    mutating func languagePlaceholder(_ selector: TagManifest.Selector, at location: SourceLocation?) -> Int?? {
        let text: String
        switch selector {
        case .path(let path): text = path
        case .glob(let glob): text = glob
        }
        guard text.contains(LanguageTag.placeholder) else { return .some(nil) }
        let components = text.split(separator: "/", omittingEmptySubsequences: false)
        let whole = components.indices.filter { components[$0] == LanguageTag.placeholder }
        let mentions = components.filter { $0.contains(LanguageTag.placeholder) }.count
        guard whole.count == 1, mentions == 1 else {
            error(
                .languageInvalid,
                """
                '\(text)' must hold '{language}' once, as one whole path component (e.g. Voice/{language}/lines): \
                each folder there names its files' language
                """,
                at: location, subject: text)
            return nil
        }
        return .some(whole[0])
    }

    /// The entry's `platforms` as written, checked against `background-assets.platforms` once the whole manifest is
    /// read (`checkEntryPlatforms`); nil, its error raised, when it is no list or empty.
    mutating func entryPlatforms(_ node: Node) -> [TagManifest.Located<String>]? {
        let items = stringList(node, key: "platforms")
        guard node.sequence != nil else { return nil }
        guard !items.isEmpty else {
            error(
                .platformInvalid,
                "'platforms' is empty: name the platforms the entry's files are for, or remove 'platforms' for all",
                at: location(node))
            return nil
        }
        var seen = Set<String>()
        for item in items where !seen.insert(item.value).inserted {
            error(
                .platformInvalid, "'\(item.value)' is listed twice in 'platforms': remove the second one",
                at: item.location, subject: item.value)
        }
        return items
    }

    /// Every entry's `platforms` must be a subset of `background-assets.platforms` (docs/background-assets.md#platforms);
    /// values are spelled as there (iOS, tvOS, macOS, visionOS).
    mutating func checkEntryPlatforms(_ manifest: TagManifest) {
        let allowed = manifest.backgroundAssets.platforms(profile: manifest.profile.value)
        for entry in manifest.entries {
            guard let platforms = entry.platforms else { continue }
            for item in platforms where !allowed.contains(item.value) {
                let name = item.value
                let known = BackgroundAssetsSettings.platformNames.contains(name)
                error(
                    .platformInvalid,
                    known
                        ? """
                        platform '\(name)' is not in background-assets.platforms (\(allowed.joined(separator: ", "))): \
                        add it there or remove it from the entry
                        """
                        : """
                        unknown platform '\(name)'\(hint(name, BackgroundAssetsSettings.platformNames)): use \
                        \(allowed.joined(separator: ", "))
                        """,
                    at: item.location, subject: name)
            }
        }
    }

    /// The entry's `path` or `glob` (exactly one of them), and where it is written, which diagnostics about the
    /// entry's files point at. The selector is nil when it is missing, doubled or unusable.
    mutating func selector(path: Node?, glob: Node?, of node: Node) -> (TagManifest.Selector?, SourceLocation?) {
        switch (path, glob) {
        case (nil, nil):
            if misspelt["a resources entry"]?.isDisjoint(with: ["path", "glob"]) ?? true {
                error(.manifestMissingKey, "entry has neither 'path' nor 'glob': add one of them", at: location(node))
            }
            return (nil, nil)
        case (_?, let glob?):
            error(
                .manifestInvalidValue, "entry has both 'path' and 'glob': an entry takes exactly one, split it in two",
                at: location(glob))
            return (nil, nil)
        case (let path?, nil):
            return (pathSelector(path), location(path))
        case (nil, let glob?):
            return (globSelector(glob), location(glob))
        }
    }

    /// A `path` selector, normalized: not empty, no NUL, inside resources-root.
    mutating func pathSelector(_ node: Node) -> TagManifest.Selector? {
        guard
            let value = selectorText(
                node, key: "path", emptyHint: "name a file or folder under resources-root ('.' for all of it)")?.value
        else { return nil }
        return .path(RelativePath.normalize(value) ?? value)
    }

    /// A `glob` selector as written: not empty, no NUL, inside resources-root, well formed.
    mutating func globSelector(_ node: Node) -> TagManifest.Selector? {
        guard let text = selectorText(node, key: "glob", emptyHint: "write a pattern such as 'Audio/**/*.caf'")
        else { return nil }
        let (value, at) = text
        if let problem = GlobPattern.syntaxProblem(value) {
            error(.manifestInvalidValue, "glob '\(value)' is malformed: \(problem)", at: at, subject: value)
            return nil
        }
        return .glob(value)
    }

    /// The text of a `path` or `glob` (`key`), checked alike: not empty (`emptyHint` says what to write instead), no
    /// NUL, inside resources-root. Nil, its error raised, when it fails one of those.
    mutating func selectorText(_ node: Node, key: String, emptyHint: String) -> (value: String, at: SourceLocation?)? {
        guard let value = string(node, key: key) else { return nil }
        let at = location(node)
        if value.isEmpty {
            error(.manifestInvalidValue, "'\(key)' is empty: \(emptyHint)", at: at)
        } else if value.utf8.contains(0) {
            error(
                .manifestInvalidValue,
                """
                \(key) '\(value.debugDescription.dropFirst().dropLast())' holds a NUL character, which no file \
                name can: remove it
                """,
                at: at)
        } else if let problem = RelativePath.outsideRootProblem(value) {
            error(.pathOutsideRoot, "\(key) '\(value)' \(problem)", at: at, subject: value)
        } else {
            return (value, at)
        }
        return nil
    }

    /// The entry's valid tags; a missing or empty `tags` is an error (a list whose every tag was invalid has its own
    /// errors already).
    mutating func entryTags(_ node: Node?, of entry: Node) -> [TagManifest.Located<String>] {
        guard let node else {
            if misspelt["a resources entry"]?.contains("tags") != true {
                error(.manifestMissingKey, "entry has no 'tags': add e.g. 'tags: [level1]'", at: location(entry))
            }
            return []
        }
        let tags = tagList(node, key: "tags")
        if tags.isEmpty && node.sequence?.isEmpty == true {
            error(.manifestInvalidValue, "'tags' is empty: give the entry at least one tag", at: location(node))
        }
        return tags
    }

    /// The entry's `into`, normalized ("" is the bundle's root); not usable (the entry is dropped) when it is
    /// absolute, climbs with `..`, holds a NUL or is no string.
    mutating func destinationFolder(_ node: Node) -> (folder: String?, usable: Bool) {
        let unusable: (folder: String?, usable: Bool) = (nil, false)
        guard let value = string(node, key: "into") else { return unusable }
        if value.hasPrefix("/") || value.hasPrefix("~") {
            error(
                .manifestInvalidValue,
                """
                'into' is '\(value)', an absolute path: name a folder inside the app bundle, relative to its root \
                ('.' for the root itself)
                """,
                at: location(node), subject: value)
            return unusable
        }
        if value.slashSeparated().contains("..") {
            error(
                .manifestInvalidValue,
                """
                'into' is '\(value)', which holds '..': name a folder inside the app bundle without '..' ('.' for \
                the root)
                """,
                at: location(node), subject: value)
            return unusable
        }
        if value.utf8.contains(0) {
            error(
                .manifestInvalidValue, "'into' holds a NUL character: name a folder inside the app bundle",
                at: location(node))
            return unusable
        }
        return (RelativePath.normalize(value) ?? "", true)
    }

    // MARK: Tags

    mutating func tagList(_ node: Node?, key: String) -> [TagManifest.Located<String>] {
        guard let node else { return [] }
        var tags: [TagManifest.Located<String>] = []
        for item in stringList(node, key: key, allowNull: true) {
            let tag = item.value
            if tag.isEmpty {
                error(
                    .tagInvalid, "empty tag in '\(key)': remove it or give it a name" + indicatorFix(at: item.location),
                    at: item.location)
                continue
            }
            if tag.contains("/") {
                error(
                    .tagInvalid,
                    "tag '\(tag)' contains '/', which cannot be part of a pack's file name: rename the tag",
                    at: item.location, subject: tag)
                continue
            }
            // NUL and the other C0 controls and DEL (docs/manifest.md): tags become parts of file names, and the system cuts a
            // name at a NUL, so two packs would share one file.
            if tag.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                error(
                    .tagInvalid,
                    """
                    tag '\(tag.debugDescription.dropFirst().dropLast())' contains a control character (NUL, a line \
                    break, a tab, ...), which cannot be part of a pack's file name: rename the tag
                    """,
                    at: item.location, subject: tag)
                continue
            }
            if tag.first!.isWhitespace || tag.last!.isWhitespace {
                warning(
                    .tagInvalid,
                    """
                    tag '\(tag)' has leading or trailing whitespace, so it differs from \
                    '\(tag.trimmingCharacters(in: .whitespaces))': remove the spaces
                    """,
                    at: item.location, subject: tag)
            }
            tags.append(item)
        }
        return tags
    }

    mutating func checkTagLists(initial: [TagManifest.Located<String>], prefetch: [TagManifest.Located<String>]) {
        for (list, key) in [(initial, "initial-install"), (prefetch, "prefetch-order")] {
            var seen = Set<String>()
            for tag in list where !seen.insert(tag.value).inserted {
                warning(
                    .tagListedTwice, "tag '\(tag.value)' is listed twice in '\(key)': remove the second one",
                    at: tag.location, subject: tag.value)
            }
        }
        let initialTags = Set(initial.map(\.value))
        var reported = Set<String>()
        for tag in prefetch where initialTags.contains(tag.value) && reported.insert(tag.value).inserted {
            warning(
                .tagInBothCategories,
                """
                tag '\(tag.value)' is both initial-install and in prefetch-order; initial-install wins: remove it from \
                prefetch-order
                """,
                at: tag.location, subject: tag.value)
        }
    }

    // MARK: Allow

    /// An `allow` list's warning codes (docs/manifest.md#allowed-warnings); an error code or an unknown code is
    /// `manifest-invalid-value` with the closest warning code, and left out.
    mutating func allowedCodes(_ node: Node) -> Set<DiagnosticCode> {
        let names = DiagnosticCode.warningCodes.map(\.rawValue)
        var codes = Set<DiagnosticCode>()
        for item in stringList(node, key: "allow") {
            if let code = DiagnosticCode(rawValue: item.value), DiagnosticCode.warningCodes.contains(code) {
                codes.insert(code)
                continue
            }
            let isError = DiagnosticCode(rawValue: item.value) != nil
            let what =
                isError
                ? "'\(item.value)' in 'allow' is an error code, and only warnings can be allowed"
                : "'\(item.value)' in 'allow' is no diagnostic code"
            let hint = Suggestion.closest(to: item.value, in: names).map { "did you mean '\($0)'? " } ?? ""
            let fix = isError ? "fix what it reports, and list warning codes only" : "list warning codes only"
            error(.manifestInvalidValue, "\(what): \(hint)\(fix)", at: item.location, subject: item.value)
        }
        return codes
    }

    // MARK: Limits

    mutating func limits(_ node: Node) -> [LimitProfile.Key: Int64?] {
        guard let mapping = node.mapping else {
            if !isNullNode(node) {
                error(
                    .manifestSyntax, "'limits' must be a mapping such as 'max-pack-size: 512MB', not \(kind(of: node))",
                    at: location(node))
            }
            return [:]
        }
        let pairs = keyedPairs(mapping, known: LimitProfile.Key.allCases.map(\.rawValue), context: "'limits'")
        var overrides: [LimitProfile.Key: Int64?] = [:]
        for key in LimitProfile.Key.allCases {
            guard let value = pairs[key.rawValue]?.value else { continue }
            guard let scalar = value.scalar else {
                error(
                    .manifestSyntax, "'\(key.rawValue)' must be a number, not \(kind(of: value))", at: location(value))
                continue
            }
            if isNull(scalar) || (scalar.style == .plain && scalar.string.lowercased() == "none") {
                overrides[key] = .some(nil)
                continue
            }
            if key.isCount {
                if value.tag.rawValue == Tag.Name.int.rawValue, let count = Int64(scalar.string), count >= 0 {
                    overrides[key] = count
                } else {
                    error(
                        .manifestInvalidValue,
                        "'\(key.rawValue)' must be a whole number of packs, not '\(scalar.string)'",
                        at: location(value))
                }
            } else if let bytes = ByteCount.parse(scalar.string) {
                overrides[key] = bytes
            } else {
                error(
                    .manifestInvalidValue,
                    """
                    '\(scalar.string)' is not a size for '\(key.rawValue)': write bytes (512000000) or a number with \
                    B, KB, MB, GB, KiB, MiB or GiB (512MB)
                    """,
                    at: location(value))
            }
        }
        return overrides
    }

    // MARK: Background Assets

    /// The `background-assets` section (docs/background-assets.md); a value that is wrong is reported and its default kept.
    mutating func backgroundAssets(_ node: Node) -> BackgroundAssetsSettings {
        var settings = BackgroundAssetsSettings()
        guard let mapping = node.mapping else {
            if !isNullNode(node) {
                error(
                    .manifestSyntax,
                    "'background-assets' must be a mapping such as 'hosting: apple', not \(kind(of: node))",
                    at: location(node))
            }
            return settings
        }
        let pairs = keyedPairs(mapping, known: BackgroundAssetsSettings.keys, context: "'background-assets'")
        if let value = pairs["hosting"]?.value, let text = string(value, key: "hosting") {
            if let hosting = BackgroundAssetsSettings.Hosting(rawValue: text) {
                settings.hosting = hosting
            } else {
                let names = BackgroundAssetsSettings.Hosting.allCases.map(\.rawValue)
                error(
                    .manifestInvalidValue,
                    """
                    unknown hosting '\(text)'\(hint(text, names)): use apple (App Store Connect hosts the packs) or \
                    self (your own web server)
                    """,
                    at: location(value), subject: text)
            }
        }
        if let value = pairs["platforms"]?.value {
            settings.platforms = choiceList(value, key: "platforms", allowed: BackgroundAssetsSettings.platformNames)
        }
        if let value = pairs["events"]?.value,
            let events = choiceList(value, key: "events", allowed: BackgroundAssetsSettings.eventNames)
        {
            settings.events = events
        }
        if let value = pairs["app-group"]?.value, let text = string(value, key: "app-group") {
            if text.isEmpty
                || text.unicodeScalars.contains(where: {
                    $0.properties.isWhitespace || $0.properties.generalCategory == .control
                })
            {
                error(
                    .manifestInvalidValue,
                    "'app-group' must be an App Group id without spaces, like group.com.example.game",
                    at: location(value), subject: text)
            } else {
                settings.appGroup = text
            }
        }
        // The rule of --url-prefix, which wins over it (docs/background-assets.md#self-hosting).
        if let value = pairs["url-prefix"]?.value, let text = string(value, key: "url-prefix") {
            if settings.hosting != .self {
                error(
                    .manifestInvalidValue,
                    """
                    'url-prefix' applies to hosting self only: App Store Connect hosts these packs; leave it out, or \
                    set 'hosting: self'
                    """,
                    at: location(value), subject: text)
            } else if let problem = URLPrefixRule.problem(text, requireHTTPS: true, name: "url-prefix") {
                error(.manifestInvalidValue, problem, at: location(value), subject: text)
            } else {
                settings.urlPrefix = text
            }
        }
        return settings
    }

    /// A non-empty list of distinct values from `allowed` (spelled exactly); nil when it is not one.
    mutating func choiceList(_ node: Node, key: String, allowed: [String]) -> [String]? {
        let items = stringList(node, key: key)
        guard node.sequence != nil else { return nil }
        var values: [String] = []
        var usable = true
        for item in items {
            if !allowed.contains(item.value) {
                error(
                    .manifestInvalidValue,
                    """
                    unknown value '\(item.value)' in '\(key)'\(hint(item.value, allowed)): use \
                    \(allowed.joined(separator: ", "))
                    """,
                    at: item.location, subject: item.value)
                usable = false
            } else if values.contains(item.value) {
                error(
                    .manifestInvalidValue, "'\(item.value)' is listed twice in '\(key)': remove the second one",
                    at: item.location, subject: item.value)
                usable = false
            } else {
                values.append(item.value)
            }
        }
        if items.isEmpty && usable {
            error(
                .manifestInvalidValue, "'\(key)' is empty: name at least one of \(allowed.joined(separator: ", "))",
                at: location(node))
            usable = false
        }
        return usable ? values : nil
    }

    func hint(_ word: String, _ candidates: [String]) -> String {
        Suggestion.closest(to: word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    // MARK: Helpers

    /// The pairs of a mapping by key; reports unknown keys with a did-you-mean and non-string keys.
    mutating func keyedPairs(_ mapping: Node.Mapping, known: [String], context: String) -> [String: (
        key: Node, value: Node
    )] {
        var result: [String: (key: Node, value: Node)] = [:]
        let names = Set(mapping.compactMap { $0.key.scalar?.string })
        misspelt[context] = []
        for (key, value) in mapping {
            guard let name = key.scalar?.string else {
                error(.manifestSyntax, "keys in \(context) must be plain names", at: location(key))
                continue
            }
            if known.contains(name) {
                result[name] = (key, value)
            } else {
                let suggestion = Suggestion.closest(to: name, in: known)
                if let suggestion, !names.contains(suggestion) { misspelt[context, default: []].insert(suggestion) }
                let hint =
                    suggestion.map { "did you mean '\($0)'?" } ?? "known keys: \(known.joined(separator: ", "))"
                error(
                    .manifestUnknownKey, "unknown key '\(name)' in \(context): \(hint)", at: location(key),
                    subject: name)
            }
        }
        return result
    }

    /// A scalar's text; reports lists, mappings and null as a wrong type.
    mutating func string(_ node: Node, key: String) -> String? {
        guard let scalar = node.scalar, !isNull(scalar) else {
            error(
                .manifestSyntax, "'\(key)' must be a string, not \(kind(of: node))" + indicatorFix(at: location(node)),
                at: location(node))
            return nil
        }
        return scalar.string
    }

    /// `: quote it: glob: "!Levels/*"` when the line at `location` holds an unquoted value starting with `!` or `&`,
    /// which YAML reads as a tag or an anchor (so the value arrives empty) rather than failing to parse.
    func indicatorFix(at location: SourceLocation?) -> String {
        guard let number = location?.line, number >= 1 else { return "" }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard number <= lines.count, let fix = YAMLSyntaxHint.quoteIndicatorValue(in: String(lines[number - 1])),
            fix.contains("\"!") || fix.contains("\"&")
        else { return "" }
        return ": " + fix
    }

    /// A list of scalars as strings; a single scalar where a list belongs is a wrong type.
    mutating func stringList(_ node: Node, key: String, allowNull: Bool = false) -> [TagManifest.Located<String>] {
        if isNullNode(node) { return [] }
        guard let sequence = node.sequence else {
            error(
                .manifestSyntax,
                "'\(key)' must be a list, e.g. [\(node.scalar?.string ?? "...")], not \(kind(of: node))",
                at: location(node))
            return []
        }
        var values: [TagManifest.Located<String>] = []
        for item in sequence {
            guard let scalar = item.scalar else {
                error(.manifestSyntax, "items of '\(key)' must be strings, not \(kind(of: item))", at: location(item))
                continue
            }
            if isNull(scalar) {
                if allowNull {
                    values.append(.init("", at: location(item)))
                } else {
                    error(.manifestSyntax, "an item of '\(key)' is empty", at: location(item))
                }
                continue
            }
            values.append(.init(scalar.string, at: location(item)))
        }
        return values
    }

    func isNull(_ scalar: Node.Scalar) -> Bool {
        scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    func isNullNode(_ node: Node) -> Bool { node.scalar.map(isNull) ?? false }

    func kind(of node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let scalar): return isNull(scalar) ? "an empty value" : "'\(scalar.string)'"
        case .alias: return "an alias"
        }
    }
}
