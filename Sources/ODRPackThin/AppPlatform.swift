import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// The platform of a built app, from its Info.plist's `CFBundleSupportedPlatforms` (`iPhoneOS` iOS, `AppleTVOS` tvOS,
/// `MacOSX` macOS, `XROS` visionOS), which Xcode writes into every app it builds (docs/background-assets.md#platforms).
/// `thin` and `ipa` refuse an app of another platform than the build (exit 2): its packs would hold another
/// platform's files.
package enum AppPlatform {
    /// The app's platforms in the order iOS, macOS, tvOS, visionOS; nil when the key is absent or names none.
    package static func platforms(info: [String: PropertyListValue]) -> [ApplePlatform]? {
        guard case .array(let values)? = info["CFBundleSupportedPlatforms"] else { return nil }
        let platforms = values.compactMap { value -> ApplePlatform? in
            guard case .string(let name) = value else { return nil }
            return ApplePlatform(bundlePlatform: name)
        }
        return platforms.isEmpty ? nil : Array(Set(platforms)).sorted()
    }

    /// An ODR build's app must be of the build's platform (docs/commands.md#platform); an app without
    /// `CFBundleSupportedPlatforms`, or a build made before builds recorded a platform, proceeds.
    /// - Throws: `ODRPackError.thin(.platformMismatch)` (exit 2) naming both platforms and the fix.
    package static func checkODR(info: [String: PropertyListValue], app: String, buildPlatform: String?) throws {
        guard let buildPlatform, let platforms = platforms(info: info),
            !platforms.map(\.rawValue).contains(buildPlatform)
        else { return }
        throw ODRPackError.thin(
            .platformMismatch(app: app, platforms: platforms.map(\.rawValue), build: buildPlatform))
    }

    /// The platform whose packs a Background Assets build puts into the app (docs/background-assets.md#platforms): the
    /// first of the app's platforms the build lists. An app without `CFBundleSupportedPlatforms` is macOS when laid out
    /// as a macOS app (`Contents/Info.plist`) and the build lists macOS, else the build's platform when it has one;
    /// with several, which one is not guessed (a wrong guess ships another platform's packs).
    /// - Throws: `ODRPackError.thin` (exit 2) for an app of a platform the build does not list, or one whose platform
    ///   cannot be told.
    package static func backgroundAssetsPlatform(
        info: [String: PropertyListValue], app: String, macOSLayout: Bool, buildPlatforms: [String]
    ) throws -> String {
        guard let platforms = platforms(info: info) else {
            if macOSLayout && buildPlatforms.contains(ApplePlatform.macOS.rawValue) {
                return ApplePlatform.macOS.rawValue
            }
            if buildPlatforms.count == 1 { return buildPlatforms[0] }
            throw ODRPackError.thin(.platformUnknown(app: app, buildPlatforms: buildPlatforms))
        }
        guard let platform = platforms.first(where: { buildPlatforms.contains($0.rawValue) }) else {
            throw ODRPackError.thin(
                .platformNotListed(app: app, platforms: platforms.map(\.rawValue), buildPlatforms: buildPlatforms))
        }
        return platform.rawValue
    }
}
