/// Why `import-xcode` cannot read a project (docs/xcode.md), as a fact of `ODRPackError.xcode`: the target, the
/// configuration, the setting, the file. Each is exit 2 with what to do in Xcode or on the command line.
package enum XcodeFailure: Sendable, Equatable {
    /// The path given is not a `.xcodeproj` folder (as given on the command line).
    case notAProject(String)
    /// The project folder (as given) holds no `project.pbxproj` that can be read.
    case unreadableProjectFile(String)
    /// `project.pbxproj` is no property list.
    case corruptProjectFile(FilePath)
    /// `project.pbxproj` has no `PBXProject` root object.
    case noRootObject(FilePath)
    /// The project's groups contain each other: the project's folder name and the group cycle's description.
    case groupCycle(project: String, cycle: String)
    /// A reference's path cannot be made, for a reason the project's model words (a cycle).
    case malformed(project: String, problem: String)
    /// An asset catalog item's `Contents.json` is not JSON.
    case invalidCatalogJSON(FilePath)
    case notAnApplication(target: String, productType: String)
    /// The target's SDKROOT names no platform On-Demand Resources exist for.
    case unsupportedSDK(target: String, sdk: String)
    /// The target's SUPPORTED_PLATFORMS names none On-Demand Resources exist for.
    case unsupportedPlatforms(target: String, platforms: String)
    case missingConfiguration(target: String, configuration: String, available: [String])
    case missingBundleIdentifier(target: String, configuration: String)
    case onDemandResourcesDisabled(target: String, configuration: String)
    /// A build setting that refers to itself through others (16 levels deep).
    case settingCycle(setting: String)
    /// A build setting that uses one the configuration does not define.
    case undefinedSetting(setting: String, uses: String, configuration: String)
    /// The manifest to write exists (as given), and `--force` was not passed.
    case outputExists(String)
}

extension XcodeFailure: CustomStringConvertible {
    package var description: String {
        let platforms =
            "On-Demand Resources exist only for iOS and tvOS apps; choose an iOS or tvOS target with --target"
        switch self {
        case .notAProject(let path): return "'\(path)' is not an Xcode project: pass the path of a .xcodeproj folder"
        case .unreadableProjectFile(let path): return "'\(path)' has no readable project.pbxproj"
        case .corruptProjectFile(let file): return "'\(file.text)' is not a valid project file (corrupt or truncated)"
        case .noRootObject(let file):
            return "'\(file.text)' is not an Xcode project file: it has no PBXProject root object"
        case .groupCycle(let project, let cycle):
            return """
                '\(project)' is malformed: group \(cycle) contains itself (the project's groups form a cycle); fix it \
                in Xcode
                """
        case .malformed(let project, let problem): return "'\(project)' is malformed: \(problem); fix it in Xcode"
        case .invalidCatalogJSON(let file): return "'\(file.text)' is not valid JSON: fix or remove it in Xcode"
        case .notAnApplication(let target, let type):
            return """
                target '\(target)' is not an application (its product type is \(type)): On-Demand Resources belong \
                to iOS and tvOS apps; choose the app's target with --target
                """
        case .unsupportedSDK(let target, let sdk): return "target '\(target)' builds for \(sdk): \(platforms)"
        case .unsupportedPlatforms(let target, let supported):
            return "target '\(target)' builds for \(supported): \(platforms)"
        case .missingConfiguration(let target, let configuration, let available):
            return """
                target '\(target)' has no configuration '\(configuration)': choose one with --configuration \
                (\(available.joined(separator: ", ")))
                """
        case .missingBundleIdentifier(let target, let configuration):
            return """
                target '\(target)' has no PRODUCT_BUNDLE_IDENTIFIER in configuration '\(configuration)': set it in \
                Xcode or pass --setting PRODUCT_BUNDLE_IDENTIFIER=com.example.app
                """
        case .onDemandResourcesDisabled(let target, let configuration):
            return """
                target '\(target)' sets ENABLE_ON_DEMAND_RESOURCES = NO in configuration '\(configuration)': Xcode \
                makes no asset packs for it. To import its tags anyway, pass --setting ENABLE_ON_DEMAND_RESOURCES=YES
                """
        case .settingCycle(let setting): return "\(setting) refers to itself through other settings: fix it in Xcode"
        case .undefinedSetting(let setting, let name, let configuration):
            return """
                \(setting) uses $(\(name)), which configuration '\(configuration)' does not define: pass --setting \
                \(name)=VALUE
                """
        case .outputExists(let path): return "'\(path)' exists: pass --force to overwrite it, or --output another file"
        }
    }
}
