/// Why `thin` (and `ipa`, which thins a copy of the app) cannot use the app, the build folder or a pack it was given
/// (docs/commands.md#thin), as a fact of `ODRPackError.thin`: the paths as given, the pack, the platforms, the names.
/// Each is exit 2, with what to pass or rebuild; the sentence is made from the facts in one place, `description`.
package enum ThinFailure: Sendable, Equatable, CustomStringConvertible {
    /// The folder of embedded packs in an app's root, said in messages (AppleManifests.packsFolder).
    package static let packsFolder = "OnDemandResources"

    /// The build folder holds no build manifest (the arguments may be in the wrong order).
    case noBuildManifest(build: FilePath)
    /// The app given is not a folder.
    case appNotAFolder(FilePath)
    /// The app and the build folder are one folder (`sameFolder`) or one inside the other.
    case appAndBuildOverlap(app: FilePath, build: FilePath, sameFolder: Bool)
    /// The app has neither Info.plist nor Contents/Info.plist.
    case notAnAppBundle(FilePath)
    /// A thin killed during its commit left this folder (a name in the app's root) of app files it had moved aside.
    case interruptedThinLeft(app: FilePath, name: String)
    /// `--resources-path` (as given) is absolute, empty, or holds `.` or `..`.
    case resourcesPathNotRelative(String)
    /// `--resources-path` (as given) names no folder in the app.
    case resourcesPathNotAFolder(String, app: FilePath)
    /// The app's folder of embedded packs is a symbolic link, which thin would write and remove through.
    case packsFolderIsLink(app: FilePath)
    /// `--resources-path` (as given, "" when none) leads out of the app through a symbolic link.
    case resourcesPathLeavesApp(String, app: FilePath)
    /// The app has no Info.plist (`infoPlistPath`).
    case noInfoPlist(FilePath)
    /// One of the app's property lists is over the bound (in bytes) any app's is read with.
    case plistTooLarge(FilePath, limit: Int)
    /// One of the app's property lists is not a dictionary.
    case notAPlistDictionary(FilePath)
    /// One of the app's property lists holds a value a property list cannot.
    case unsupportedPlistValue(FilePath)
    /// The build manifest lists this file (its path in the pack) without its SHA-256.
    case noSHA256(String)
    /// An app (as given) of these platforms (`CFBundleSupportedPlatforms`, in order) for an ODR build of another.
    case platformMismatch(app: String, platforms: [String], build: String)
    /// An app (as given) without `CFBundleSupportedPlatforms` for a Background Assets build of these platforms.
    case platformUnknown(app: String, buildPlatforms: [String])
    /// An app (as given) of these platforms, none of which the Background Assets build lists.
    case platformNotListed(app: String, platforms: [String], buildPlatforms: [String])
    /// A pack of the build is a link, pipe or device.
    case packNotFileOrFolder(FilePath)
    /// A pack is not a zip that can be read: the reader's words for why.
    case unreadablePack(FilePath, reason: String)
    /// A pack's entry (its name) leads out of the folder it is written into.
    case packEntryLeavesPack(FilePath, entry: String)
    /// A pack's entry name holds a NUL byte, which ends a path for the file system.
    case packEntryHoldsNUL(FilePath, entry: String)
    /// A pack's entry does not match its CRC-32 or size.
    case damagedPackEntry(FilePath, entry: String)
    /// A file the build folder should hold (`name` in `folder`) is not a readable file of it.
    case buildFileUnreadable(folder: FilePath, name: String, build: FilePath)
    /// `--embed` needs `packsFolder` in the app's root, where the app has something else of that name (in any case).
    case packsFolderNameTaken(app: FilePath, name: String)
    /// A Background Assets build's manifest has no backgroundAssets settings.
    case noBackgroundAssetsSettings(build: FilePath)
    /// A self-hosted Background Assets build's urlPrefix (nil when it has none) names no host.
    case urlPrefixWithoutHost(String?)

    package var description: String {
        switch self {
        case .noBuildManifest(let build):
            return """
                '\(build.text)' holds no \(BuildManifestFailure.fileName): pass the folder odrpack build wrote (APP \
                BUILD_DIR, in that order)
                """
        case .appNotAFolder(let app): return "'\(app.text)' is not a folder: pass the built app bundle (MyGame.app)"
        case .appAndBuildOverlap(let app, let build, let sameFolder):
            return """
                '\(app.text)' and '\(build.text)' are \(sameFolder ? "one folder" : "one inside the other"): thin \
                removes the packs' files from the app, so the app and the build folder must be apart
                """
        case .notAnAppBundle(let app):
            return """
                '\(app.text)' is not an app bundle: it has no Info.plist (nor Contents/Info.plist); pass the built app \
                (MyGame.app), then the build folder
                """
        case .interruptedThinLeft(let app, let name):
            return """
                '\(app.text)/\(name)' was left by an interrupted thin: it holds app files that thin had moved \
                aside (or a half-written one); build the app again, or put them back and remove it, then thin again
                """
        case .resourcesPathNotRelative(let path):
            return "--resources-path '\(path)' must be a relative path inside the app, without '.' or '..'"
        case .resourcesPathNotAFolder(let path, let app):
            return "--resources-path '\(path)' is not a folder in '\(app.text)'"
        case .packsFolderIsLink(let app):
            return """
                '\(app.text)/\(Self.packsFolder)' is a symbolic link: thin writes and removes packs there; make it a \
                folder of the app
                """
        case .resourcesPathLeavesApp(let path, let app):
            return """
                --resources-path '\(path)' leads out of '\(app.text)' through a symbolic link: name a folder inside \
                the app
                """
        case .noInfoPlist(let app): return "'\(app.text)' has no Info.plist: pass a built app bundle (MyGame.app)"
        case .plistTooLarge(let path, let limit):
            return """
                '\(path.text)' is over \(limit >> 20) MiB, more than any app's property list: is the app bundle \
                intact?
                """
        case .notAPlistDictionary(let path):
            return "'\(path.text)' is not a property list dictionary: is the app bundle complete?"
        case .unsupportedPlistValue(let path):
            return "'\(path.text)' holds a value a property list cannot: is the app bundle complete?"
        case .noSHA256(let file): return "the build manifest has no sha256 for '\(file)': rebuild it with odrpack build"
        case .platformMismatch(let app, let platforms, let build):
            return """
                '\(app)' is an app for \(platforms.joined(separator: ", ")) (its CFBundleSupportedPlatforms), the \
                build is for \(build): its packs hold \(build)'s files; build again with --platform \
                \(platforms.first ?? "")
                """
        case .platformUnknown(let app, let buildPlatforms):
            return """
                '\(app)' has no CFBundleSupportedPlatforms in its Info.plist, so which of the build's platforms \
                (\(buildPlatforms.joined(separator: ", "))) it is for cannot be told: add CFBundleSupportedPlatforms \
                (iPhoneOS, AppleTVOS, MacOSX or XROS; Xcode writes it into every app it builds)
                """
        case .platformNotListed(let app, let platforms, let buildPlatforms):
            return """
                '\(app)' is an app for \(platforms.joined(separator: ", ")) (its CFBundleSupportedPlatforms), which \
                the build does not list (\(buildPlatforms.joined(separator: ", "))): add the platform to \
                background-assets.platforms and build again
                """
        case .packNotFileOrFolder(let pack):
            return "the pack '\(pack.text)' is neither a file nor a folder (a link, pipe or device): build again"
        case .unreadablePack(let pack, let reason):
            return "'\(pack.text)' is not a readable pack (\(reason)): run odrpack verify, then build again"
        case .packEntryLeavesPack(let pack, let entry):
            return "'\(pack.text)' holds the entry '\(entry)', which leaves the pack: rebuild it with odrpack build"
        case .packEntryHoldsNUL(let pack, let entry):
            // The name as Swift escapes it, without the quotes: the NUL shows as `\0`.
            let shown = entry.debugDescription.dropFirst().dropLast()
            return """
                '\(pack.text)' holds the entry '\(shown)', whose name has a NUL byte, which no file name can: rebuild \
                it with odrpack build
                """
        case .damagedPackEntry(let pack, let entry):
            return """
                '\(entry)' in '\(pack.text)' is damaged (CRC or size mismatch): run odrpack verify, then build \
                again
                """
        case .buildFileUnreadable(let folder, let name, let build):
            return "'\(folder.text)/\(name)' cannot be read: is '\(build.text)' a finished odrpack build?"
        case .packsFolderNameTaken(let app, let name):
            return """
                '\(app.text)/\(name)' is not the folder of embedded packs (the app's executable or a file of that \
                name): --embed needs '\(Self.packsFolder)/' for the packs; thin without --embed and serve the packs, \
                or rename the app's '\(name)'
                """
        case .noBackgroundAssetsSettings(let build):
            return "'\(build.text)' has no backgroundAssets settings: rebuild it with odrpack build"
        case .urlPrefixWithoutHost(let urlPrefix):
            return """
                the build is self-hosted but its urlPrefix '\(urlPrefix ?? "")' names no host: rebuild it with \
                --url-prefix https://host/path
                """
        }
    }
}
