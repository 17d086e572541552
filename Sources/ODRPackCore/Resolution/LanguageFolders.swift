import ODRPackFormats
import ODRPackPlatform

/// `{language}` in a `path` entry, made concrete before the walk (docs/background-assets.md#languages): the folder
/// above the placeholder is listed once, and each folder in it named as a language (`fr`, `pt_BR.lproj`) becomes an
/// entry of its own with that language, `Base.lproj` one without a language. The entries keep the written entry's
/// location, so diagnostics point at it. A `glob` with `{language}` is matched as if it held `*` there; the walk reads
/// the language of each file it matches (`language(of:glob:)`).
struct LanguageFolders {
    let manifest: TagManifest
    let fileSystem: any ResourceFileSystem

    /// The entries with every `{language}` path entry replaced by its concrete ones, and the `language-invalid`
    /// errors for names at a `{language}` place that are neither a language nor `Base.lproj`; nil when no path entry
    /// holds `{language}`.
    func expandedEntries() -> (entries: [TagManifest.Entry], diagnostics: [Diagnostic])? {
        guard
            manifest.entries.contains(where: {
                if case .path = $0.selector { return $0.languageComponent != nil } else { return false }
            })
        else { return nil }
        guard case .success(let root) = fileSystem.resolvedPath(manifest.resourcesRootPath.string) else { return nil }
        let excludes = manifest.exclude.compactMap { GlobPattern($0.value) }
        var entries: [TagManifest.Entry] = []
        var diagnostics: [Diagnostic] = []
        for entry in manifest.entries {
            guard case .path(let path) = entry.selector, let component = entry.languageComponent else {
                entries.append(entry)
                continue
            }
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let folder = parts[..<component].joined(separator: "/")
            let rest = parts[(component + 1)...].joined(separator: "/")
            let absolute = folder.isEmpty ? root : root.slashJoined(folder)
            guard let names = fileSystem.names(in: absolute) else {
                // Not there: the walk reports the entry as written (`path-not-found`).
                entries.append(entry)
                continue
            }
            var found = 0
            for name in names.sorted(by: { $0.precedesByCodePoint($1) }) where !Self.alwaysExcluded(name) {
                let relative = folder.isEmpty ? name : folder.slashJoined(name)
                if excludes.contains(where: { $0.matches(relative) || $0.matches(relative.slashJoined(Self.probe)) }) {
                    continue
                }
                let isFolder: Bool
                if case .success(let status) = fileSystem.status(absolute.slashJoined(name), followingLinks: true) {
                    isFolder = status.kind == .directory
                } else {
                    isFolder = false
                }
                let meaning = LanguageTag.folderMeaning(name)
                guard isFolder, meaning != .invalid else {
                    diagnostics.append(
                        .error(
                            .languageInvalid,
                            isFolder
                                ? """
                                folder '\(relative)' stands where '\(path)' expects a language: name it as a BCP 47 \
                                language (fr, pt-BR, zh-Hant, or fr.lproj, pt_BR.lproj; Base.lproj for files of no \
                                language), or exclude it, or move it
                                """
                                : """
                                '\(relative)' is a file where '\(path)' expects language folders: move it into one, \
                                or exclude it
                                """,
                            at: entry.selectorLocation, subject: relative))
                    continue
                }
                var concrete = TagManifest.Entry(
                    selector: .path(rest.isEmpty ? relative : relative.slashJoined(rest)),
                    selectorLocation: entry.selectorLocation, tags: entry.tags, into: entry.into)
                if case .language(let language) = meaning {
                    concrete.language = .init(language, at: entry.selectorLocation)
                }
                concrete.platforms = entry.platforms
                entries.append(concrete)
                found += 1
            }
            if found == 0 {
                diagnostics.append(
                    .warning(
                        .entryMatchesNothing,
                        """
                        '\(path)' finds no language folder in '\(folder.isEmpty ? "." : folder)': add folders such as \
                        en and fr there, or fix the path
                        """,
                        at: entry.selectorLocation, subject: path))
            }
        }
        return (entries, diagnostics)
    }

    /// A name no folder has, to ask whether an exclude pattern takes everything in a folder (`Video/drafts/**`).
    static let probe = "\u{1}odrpack-probe"

    /// What the walk never visits (docs/manifest.md): version control and `.DS_Store`.
    static func alwaysExcluded(_ name: String) -> Bool {
        VersionControl.isFolderName(name) || name == ".DS_Store"
    }

    /// The glob a `{language}` glob is matched with: `*` in the placeholder's place.
    static func matchingGlob(_ glob: String) -> String {
        glob.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0 == LanguageTag.placeholder ? "*" : String($0) }.joined(separator: "/")
    }

    /// The folder name at the `{language}` place of `glob` in `path` (a file the glob matched): the first component
    /// where the part of the glob before the placeholder matches what comes before it and the part after matches
    /// what follows. Nil when there is none (the file itself stands at the place).
    static func languageFolder(of path: [Substring], glob: String) -> Substring? {
        let parts = glob.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard let place = parts.firstIndex(of: Substring(LanguageTag.placeholder)) else { return nil }
        let before = parts[..<place].joined(separator: "/")
        let after = parts[(place + 1)...].joined(separator: "/")
        guard !after.isEmpty, let afterPattern = GlobPattern(after) else { return nil }
        let beforePattern = before.isEmpty ? nil : GlobPattern(before)
        for index in path.indices.dropLast() {
            let head = path[..<index].joined(separator: "/")
            // `**` before the placeholder also matches no folder at all.
            let headMatches =
                head.isEmpty
                ? before.split(separator: "/").allSatisfy { $0 == "**" } : beforePattern?.matches(head) ?? false
            if headMatches && afterPattern.matches(path[(index + 1)...].joined(separator: "/")) { return path[index] }
        }
        return nil
    }
}
