import Foundation
import ODRPackPlatform

/// Reads the On-Demand Resources tags an Xcode project already has and turns them into a tag manifest (SPEC 9).
package struct XcodeImporter {
    package struct Options: Sendable {
        package var target: String?
        package var configuration = "Release"
        /// Values for build settings the project refers to but does not define.
        package var settings: [String: String] = [:]

        package init() {}
    }

    /// The imported manifest, with where each part came from.
    package struct Result: Sendable {
        package struct Entry: Sendable {
            package var path: String
            package var tags: [String]
            package var sources: [String]
        }

        var projectName: String
        package var target: String
        package var configuration: String
        package var bundleID: String
        package var entries: [Entry]
        package var initialInstall: [String]
        package var prefetchOrder: [String]
        package var notes: [String]
    }


    package let options: Options

    package init(options: Options) { self.options = options }

    package func importProject(at path: String) throws -> Result {
        let project = try XcodeProject(path: path)
        let (targetID, target) = try chooseTarget(project)
        let targetName = target["name"] as? String ?? targetID
        let settings = try buildSettings(project, target: target, targetName: targetName)
        var notes: [String] = []
        var tagged: [String: (tags: Set<String>, sources: [String])] = [:]
        func add(_ path: String, _ tags: [String], source: String) {
            guard !tags.isEmpty else { return }
            tagged[path, default: ([], [])].tags.formUnion(tags)
            if !tagged[path]!.sources.contains(source) { tagged[path]!.sources.append(source) }
        }

        // ASSET_TAGS on the build files of the resources phase (files and folder references).
        var untaggedResources = Set<String>()
        var catalogs: [String] = []
        for phase in project.ids(target, "buildPhases").compactMap({ project[$0] })
        where phase["isa"] as? String == "PBXResourcesBuildPhase" {
            for buildFile in project.ids(phase, "files").compactMap({ project[$0] }) {
                guard let reference = buildFile["fileRef"] as? String else { continue }
                let tags = ((buildFile["settings"] as? [String: Any])?["ASSET_TAGS"] as? [String]) ?? []
                let members = project[reference]?["isa"] as? String == "PBXVariantGroup" ? project.ids(project[reference], "children") : [reference]
                for member in members {
                    switch project.path(of: member) {
                    case let .success(relative):
                        if tags.isEmpty { untaggedResources.insert(relative) } else { add(relative, tags, source: "ASSET_TAGS") }
                        let type = project[member]?["lastKnownFileType"] as? String ?? project[member]?["explicitFileType"] as? String
                        if type == "folder.assetcatalog" || relative.hasSuffix(".xcassets") { catalogs.append(relative) }
                    case let .failure(problem):
                        if !tags.isEmpty { notes.append("skipped tagged resource: \(problem.description)") }
                    }
                }
            }
        }

        // assetTagsByRelativePath of the target's synchronized folders (Xcode 16 and later).
        for groupID in project.ids(target, "fileSystemSynchronizedGroups") {
            guard case let .success(folder) = project.path(of: groupID) else {
                notes.append("skipped a synchronized folder whose path is not inside the project folder")
                continue
            }
            for exception in project.ids(project[groupID], "exceptions").compactMap({ project[$0] })
            where exception["isa"] as? String == "PBXFileSystemSynchronizedBuildFileExceptionSet"
                && (exception["target"] as? String).map({ $0 == targetID }) ?? true {
                for (relative, tags) in exception["assetTagsByRelativePath"] as? [String: [String]] ?? [:] {
                    add(XcodeProject.join(folder, relative), tags, source: "assetTagsByRelativePath")
                }
            }
            catalogs += findCatalogs(in: project.sourceRoot.appendingPathComponent(folder), relative: folder)
        }

        // Asset catalog items tagged in their Contents.json.
        for catalog in Set(catalogs).sorted() {
            for (item, tags) in try catalogTags(project.sourceRoot.appendingPathComponent(catalog), relative: catalog) {
                add(item, tags, source: "Contents.json")
            }
        }

        for path in untaggedResources.sorted() where tagged[path] != nil {
            notes.append("'\(path)' is in the resources phase both tagged and untagged; Xcode copies the untagged one into the app too, a manifest cannot say that")
        }
        for path in untaggedResources.sorted() {
            if let folder = tagged.keys.sorted().first(where: { path.hasPrefix($0 + "/") }) {
                notes.append("'\(path)' is added to the app untagged, but it is inside '\(folder)', which is tagged: here it is tagged")
            }
        }

        let initial = Self.tagList(settings["ON_DEMAND_RESOURCES_INITIAL_INSTALL_TAGS"])
        let prefetch = Self.tagList(settings["ON_DEMAND_RESOURCES_PREFETCH_ORDER"])
        for (list, key) in [(initial, "ON_DEMAND_RESOURCES_INITIAL_INSTALL_TAGS"), (prefetch, "ON_DEMAND_RESOURCES_PREFETCH_ORDER")] {
            for tag in list where tag.contains(where: \.isWhitespace) {
                notes.append("\(key) quotes the tag '\(tag)', which contains a space; in the manifest it is one tag")
            }
        }
        let used = Set(tagged.values.flatMap(\.tags))
        for tag in Set(initial + prefetch).subtracting(used).sorted() {
            notes.append("tag '\(tag)' is in the build settings but no imported resource carries it: plan will report tag-unknown")
        }

        guard let bundleID = settings["PRODUCT_BUNDLE_IDENTIFIER"], !bundleID.isEmpty else {
            throw ODRPackError.unusableInput("target '\(targetName)' has no PRODUCT_BUNDLE_IDENTIFIER in configuration '\(options.configuration)': set it in Xcode or pass --setting PRODUCT_BUNDLE_IDENTIFIER=com.example.app")
        }
        return Result(
            projectName: project.bundlePath.lastPathComponent, target: targetName, configuration: options.configuration,
            bundleID: bundleID,
            entries: tagged.keys.sorted { $0.precedesByCodePoint($1) }.map { path in
                Result.Entry(path: path, tags: tagged[path]!.tags.sorted(), sources: tagged[path]!.sources)
            },
            initialInstall: initial, prefetchOrder: prefetch, notes: notes)
    }

    // MARK: Targets and settings

    func chooseTarget(_ project: XcodeProject) throws -> (String, XcodeProject.Object) {
        let targets = project.targets
        let names = targets.map { $0.object["name"] as? String ?? $0.id }
        if let wanted = options.target {
            guard let found = targets.first(where: { ($0.object["name"] as? String) == wanted }) else {
                throw ODRPackError.unusableInput("no target '\(wanted)' in the project: its targets are \(names.joined(separator: ", "))")
            }
            return found
        }
        let applications = targets.filter { ($0.object["productType"] as? String)?.hasPrefix("com.apple.product-type.application") == true }
        if applications.count == 1 { return applications[0] }
        if applications.isEmpty && targets.count == 1 { return targets[0] }
        throw ODRPackError.unusableInput("the project has \(applications.isEmpty ? targets.count : applications.count) \(applications.isEmpty ? "targets" : "application targets"): choose one with --target (\((applications.isEmpty ? names : applications.map { $0.object["name"] as? String ?? $0.id }).joined(separator: ", ")))")
    }

    /// The configuration's settings, the target's over the project's, with `$(...)` references resolved.
    func buildSettings(_ project: XcodeProject, target: XcodeProject.Object, targetName: String) throws -> [String: String] {
        func configuration(of owner: XcodeProject.Object?) -> XcodeProject.Object? {
            let list = project[owner?["buildConfigurationList"] as? String ?? ""]
            return project.ids(list, "buildConfigurations").compactMap { project[$0] }.first { $0["name"] as? String == options.configuration }
        }
        guard let targetConfiguration = configuration(of: target) else {
            let list = project[target["buildConfigurationList"] as? String ?? ""]
            let names = project.ids(list, "buildConfigurations").compactMap { project[$0]?["name"] as? String }
            throw ODRPackError.unusableInput("target '\(targetName)' has no configuration '\(options.configuration)': choose one with --configuration (\(names.joined(separator: ", ")))")
        }
        var raw: [String: String] = ["TARGET_NAME": targetName, "PRODUCT_NAME": targetName, "PROJECT_NAME": project.bundlePath.deletingPathExtension().lastPathComponent,
                                     "CONFIGURATION": options.configuration, "SRCROOT": project.sourceRoot.path]
        for owner in [configuration(of: project.rootObject), targetConfiguration] {
            for (key, value) in owner?["buildSettings"] as? [String: Any] ?? [:] {
                if let text = value as? String {
                    raw[key] = text
                } else if let list = value as? [String] {
                    raw[key] = list.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " ")
                }
            }
        }
        for (key, value) in options.settings { raw[key] = value }
        var resolved: [String: String] = [:]
        for key in ["PRODUCT_BUNDLE_IDENTIFIER", "ON_DEMAND_RESOURCES_INITIAL_INSTALL_TAGS", "ON_DEMAND_RESOURCES_PREFETCH_ORDER"] {
            guard let value = raw[key] else { continue }
            resolved[key] = try Self.expand(value, settings: raw, setting: key, configuration: options.configuration, depth: 0)
        }
        return resolved
    }

    /// Expands `$(NAME)`, `${NAME}` and `$NAME`, with the `:rfc1034identifier`, `:lower` and `:upper` operators.
    static func expand(_ value: String, settings: [String: String], setting: String, configuration: String, depth: Int) throws -> String {
        guard depth < 16 else {
            throw ODRPackError.unusableInput("\(setting) refers to itself through other settings: fix it in Xcode")
        }
        let pattern = /\$(?:\(([A-Za-z0-9_]+)((?::[A-Za-z0-9_]+)*)\)|\{([A-Za-z0-9_]+)((?::[A-Za-z0-9_]+)*)\}|([A-Za-z_][A-Za-z0-9_]*))/
        var result = ""
        var rest = value[...]
        while let match = rest.firstMatch(of: pattern) {
            result += rest[..<match.range.lowerBound]
            let name = String(match.output.1 ?? match.output.3 ?? match.output.5 ?? "")
            let operators = String(match.output.2 ?? match.output.4 ?? "").split(separator: ":")
            guard let raw = settings[name] else {
                throw ODRPackError.unusableInput("\(setting) uses $(\(name)), which configuration '\(configuration)' does not define: pass --setting \(name)=VALUE")
            }
            var expanded = try expand(raw, settings: settings, setting: setting, configuration: configuration, depth: depth + 1)
            for op in operators {
                switch op {
                case "rfc1034identifier":
                    expanded = String(expanded.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
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

    func findCatalogs(in folder: URL, relative: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var catalogs: [String] = []
        for case let url as URL in enumerator where url.pathExtension == "xcassets" {
            catalogs.append(XcodeProject.join(relative, String(url.path.dropFirst(folder.path.count + 1))))
            enumerator.skipDescendants()
        }
        return catalogs
    }

    /// Every item folder of a catalog whose Contents.json names on-demand resource tags.
    func catalogTags(_ catalog: URL, relative: String) throws -> [(String, [String])] {
        guard let enumerator = FileManager.default.enumerator(at: catalog, includingPropertiesForKeys: nil) else { return [] }
        var found: [(String, [String])] = []
        for case let url as URL in enumerator where url.lastPathComponent == "Contents.json" {
            let item = url.deletingLastPathComponent()
            guard item.path != catalog.path else { continue }
            let data = FileManager.default.contents(atPath: url.path) ?? Data()
            let json: Any
            do { json = try JSONSerialization.jsonObject(with: data) } catch {
                throw ODRPackError.unusableInput("'\(url.path)' is not valid JSON: fix or remove it in Xcode")
            }
            let object = json as? [String: Any] ?? [:]
            var tags: [String] = []
            for key in ["properties", "info"] {
                tags += (object[key] as? [String: Any])?["on-demand-resource-tags"] as? [String] ?? []
            }
            if !tags.isEmpty {
                found.append((XcodeProject.join(relative, String(item.path.dropFirst(catalog.path.count + 1))), Array(Set(tags)).sorted()))
            }
        }
        return found
    }
}
