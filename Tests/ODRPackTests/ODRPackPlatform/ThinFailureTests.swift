import Testing

@testable import ODRPackPlatform

/// `thin`'s failures carry their facts (the paths as given, the pack, the platforms) and are said in one place: each
/// prints, byte for byte, the sentence its producer wrote before it held facts, and keeps the `--json` code
/// `unusable-input` (docs/commands.md#json).
@Suite struct ThinFailureTests {
    static let expected: [(ThinFailure, String)] = [
        (
            .noBuildManifest(build: "Game.app"),
            "'Game.app' holds no odrpack-manifest.json: pass the folder odrpack build wrote (APP BUILD_DIR, in that "
                + "order)"
        ),
        (.appNotAFolder("Missing.app"), "'Missing.app' is not a folder: pass the built app bundle (MyGame.app)"),
        (
            .appAndBuildOverlap(app: "out", build: "out", sameFolder: true),
            "'out' and 'out' are one folder: thin removes the packs' files from the app, so the app and the build "
                + "folder must be apart"
        ),
        (
            .appAndBuildOverlap(app: "out/Inner.app", build: "out", sameFolder: false),
            "'out/Inner.app' and 'out' are one inside the other: thin removes the packs' files from the app, so the "
                + "app and the build folder must be apart"
        ),
        (
            .notAnAppBundle("Game.app"),
            "'Game.app' is not an app bundle: it has no Info.plist (nor Contents/Info.plist); pass the built app "
                + "(MyGame.app), then the build folder"
        ),
        (
            .interruptedThinLeft(app: "Game.app", name: ".odrpack-tmp-1"),
            "'Game.app/.odrpack-tmp-1' was left by an interrupted thin: it holds app files that thin had moved aside "
                + "(or a half-written one); build the app again, or put them back and remove it, then thin again"
        ),
        (
            .resourcesPathNotRelative("../Data"),
            "--resources-path '../Data' must be a relative path inside the app, without '.' or '..'"
        ),
        (.resourcesPathNotAFolder("Data", app: "Game.app"), "--resources-path 'Data' is not a folder in 'Game.app'"),
        (
            .packsFolderIsLink(app: "Game.app"),
            "'Game.app/OnDemandResources' is a symbolic link: thin writes and removes packs there; make it a folder of "
                + "the app"
        ),
        (
            .resourcesPathLeavesApp("Data", app: "Game.app"),
            "--resources-path 'Data' leads out of 'Game.app' through a symbolic link: name a folder inside the app"
        ),
        (
            .resourcesPathLeavesApp("", app: "Game.app"),
            "--resources-path '' leads out of 'Game.app' through a symbolic link: name a folder inside the app"
        ),
        (.noInfoPlist("Game.app"), "'Game.app' has no Info.plist: pass a built app bundle (MyGame.app)"),
        (
            .plistTooLarge("Game.app/Info.plist", limit: 64 << 20),
            "'Game.app/Info.plist' is over 64 MiB, more than any app's property list: is the app bundle intact?"
        ),
        (
            .notAPlistDictionary("Game.app/Info.plist"),
            "'Game.app/Info.plist' is not a property list dictionary: is the app bundle complete?"
        ),
        (
            .unsupportedPlistValue("Game.app/Info.plist"),
            "'Game.app/Info.plist' holds a value a property list cannot: is the app bundle complete?"
        ),
        (
            .noSHA256("Level1/scene.json"),
            "the build manifest has no sha256 for 'Level1/scene.json': rebuild it with odrpack build"
        ),
        (
            .platformMismatch(app: "Game.app", platforms: ["iOS", "visionOS"], build: "tvOS"),
            "'Game.app' is an app for iOS, visionOS (its CFBundleSupportedPlatforms), the build is for tvOS: its "
                + "packs hold tvOS's files; build again with --platform iOS"
        ),
        (
            .platformUnknown(app: "Game.app", buildPlatforms: ["iOS", "tvOS"]),
            "'Game.app' has no CFBundleSupportedPlatforms in its Info.plist, so which of the build's platforms "
                + "(iOS, tvOS) it is for cannot be told: add CFBundleSupportedPlatforms (iPhoneOS, AppleTVOS, MacOSX "
                + "or XROS; Xcode writes it into every app it builds)"
        ),
        (
            .platformNotListed(app: "Mac.app", platforms: ["macOS"], buildPlatforms: ["iOS", "tvOS"]),
            "'Mac.app' is an app for macOS (its CFBundleSupportedPlatforms), which the build does not list "
                + "(iOS, tvOS): add the platform to background-assets.platforms and build again"
        ),
        (
            .packNotFileOrFolder("out/packs/a.zip"),
            "the pack 'out/packs/a.zip' is neither a file nor a folder (a link, pipe or device): build again"
        ),
        (
            .unreadablePack("out/packs/a.zip", reason: "no end of central directory"),
            "'out/packs/a.zip' is not a readable pack (no end of central directory): run odrpack verify, then build "
                + "again"
        ),
        (
            .packEntryLeavesPack("out/packs/a.zip", entry: "../x.txt"),
            "'out/packs/a.zip' holds the entry '../x.txt', which leaves the pack: rebuild it with odrpack build"
        ),
        (
            .packEntryHoldsNUL("out/packs/a.zip", entry: "a\u{0}b.txt"),
            "'out/packs/a.zip' holds the entry 'a\\0b.txt', whose name has a NUL byte, which no file name can: "
                + "rebuild it with odrpack build"
        ),
        (
            .damagedPackEntry("out/packs/a.zip", entry: "a.png"),
            "'a.png' in 'out/packs/a.zip' is damaged (CRC or size mismatch): run odrpack verify, then build again"
        ),
        (
            .buildFileUnreadable(folder: "out", name: "OnDemandResources.plist", build: "out"),
            "'out/OnDemandResources.plist' cannot be read: is 'out' a finished odrpack build?"
        ),
        (
            .buildFileUnreadable(folder: "out/BackgroundAssets", name: "AssetPackTags.json", build: "out"),
            "'out/BackgroundAssets/AssetPackTags.json' cannot be read: is 'out' a finished odrpack build?"
        ),
        (
            .packsFolderNameTaken(app: "Game.app", name: "ondemandresources"),
            "'Game.app/ondemandresources' is not the folder of embedded packs (the app's executable or a file of that "
                + "name): --embed needs 'OnDemandResources/' for the packs; thin without --embed and serve the packs, "
                + "or rename the app's 'ondemandresources'"
        ),
        (
            .noBackgroundAssetsSettings(build: "out"),
            "'out' has no backgroundAssets settings: rebuild it with odrpack build"
        ),
        (
            .urlPrefixWithoutHost("https:///packs"),
            "the build is self-hosted but its urlPrefix 'https:///packs' names no host: rebuild it with --url-prefix "
                + "https://host/path"
        ),
        (
            .urlPrefixWithoutHost(nil),
            "the build is self-hosted but its urlPrefix '' names no host: rebuild it with --url-prefix "
                + "https://host/path"
        ),
    ]

    @Test func everyFailurePrintsItsSentence() {
        for (failure, message) in Self.expected {
            #expect(failure.description == message)
        }
    }

    /// Through `ODRPackError`, the message is the failure's, and the code the sentence had.
    @Test func theErrorPrintsTheFailureWithTheCodeUnusableInput() {
        for (failure, message) in Self.expected {
            let error = ODRPackError.thin(failure)
            #expect(error.description == message)
            #expect("\(error)" == message)
            #expect(error.jsonCode == "unusable-input")
            #expect(error.systemError == nil && error.path == nil)
        }
    }

    /// A path that is not UTF-8 prints as its repaired text, as the sentences printed `FilePath.text`.
    @Test func aPathThatIsNotUTF8PrintsAsItsText() throws {
        let app = try #require(FilePath(bytes: Array("N".utf8) + [0xE9] + Array("/Missing.app".utf8)))
        #expect(
            ThinFailure.appNotAFolder(app).description
                == "'\(app.text)' is not a folder: pass the built app bundle (MyGame.app)")
    }
}
