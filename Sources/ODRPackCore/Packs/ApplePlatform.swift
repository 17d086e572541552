/// A platform a pack is for (docs/background-assets.md#platforms), spelled as the manifest writes it. `allCases` is
/// the order every list of platforms is written in (iOS, macOS, tvOS, visionOS): pack ids, `<id>.json`, the build
/// manifest and `AssetPackTags.json`.
package enum ApplePlatform: String, CaseIterable, Sendable, Comparable {
    case iOS
    case macOS
    case tvOS
    case visionOS

    /// How a pack id names it: lowercase (`characters-2593c7ce-tvos`).
    package var idPart: String { rawValue.lowercased() }

    /// The value of an app's `CFBundleSupportedPlatforms` that means this platform (docs/background-assets.md#platforms).
    package var bundlePlatform: String {
        switch self {
        case .iOS: return "iPhoneOS"
        case .macOS: return "MacOSX"
        case .tvOS: return "AppleTVOS"
        case .visionOS: return "XROS"
        }
    }

    /// The platform of a `CFBundleSupportedPlatforms` value (`iPhoneOS`, `AppleTVOS`, `MacOSX`, `XROS`); the
    /// simulators' values (`iPhoneSimulator`, ...) name the same platforms.
    package init?(bundlePlatform value: String) {
        switch value {
        case "iPhoneOS", "iPhoneSimulator": self = .iOS
        case "AppleTVOS", "AppleTVSimulator": self = .tvOS
        case "MacOSX": self = .macOS
        case "XROS", "XRSimulator": self = .visionOS
        default: return nil
        }
    }

    /// A platform named on the command line, in any letter case (`--platform tvos`).
    package init?(named name: String) {
        guard let platform = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
            return nil
        }
        self = platform
    }

    /// The default platform of an ODR build (docs/commands.md): tvOS for profile `tvos`, else iOS.
    package static func odrDefault(profile: String) -> ApplePlatform { profile == "tvos" ? .tvOS : .iOS }

    /// `names` (manifest spellings) in the order iOS, macOS, tvOS, visionOS, each once; unknown names left out.
    package static func ordered(_ names: some Sequence<String>) -> [String] {
        let given = Set(names)
        return allCases.map(\.rawValue).filter(given.contains)
    }

    package static func < (lhs: ApplePlatform, rhs: ApplePlatform) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
