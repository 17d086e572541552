import Foundation
import Testing

@testable import ODRPackPlatform

/// The one fatal error type: a failed system call carries the system's own errno and words, never an invented one;
/// a case with facts prints the message its producer wrote before it held facts, byte for byte. The messages are
/// pinned here, where they are made (ODRPackError+Message.swift), and the producers' tests assert the facts.
@Suite struct ODRPackErrorTests {
    @Test func aSystemCallFailureSaysWhatAndTheSystemsReason() {
        // ENOENT is 2 on Linux and on Darwin.
        let error = ODRPackError.system(.named(.open, "a.png"), 2)
        #expect(error == .call(.named(.open, "a.png"), SystemError(2)))
        #expect(error.systemError == SystemError(2) && error.jsonCode == "io" && error.path == nil)
        #expect(error.description == "cannot open 'a.png': " + SystemError(2).reason)
        #expect(SystemError(2).isMissing && !SystemError(2).reason.isEmpty)
    }

    /// `system(_:_:_:)` holds the operation, the path and the errno apart, and prints them as the sentence did.
    @Test func aFileOperationPrintsItsVerbThePathAndTheSystemsReason() {
        let reason = SystemError(ENOSPC).reason
        let path = FilePath("out/Levels/a b.zip")
        let expected: [(FileOperation, String)] = [
            (.open, "cannot open 'out/Levels/a b.zip'"), (.create, "cannot create 'out/Levels/a b.zip'"),
            (.read, "cannot read 'out/Levels/a b.zip'"), (.readBack, "cannot read back 'out/Levels/a b.zip'"),
            (.readKind("the manifest"), "cannot read the manifest 'out/Levels/a b.zip'"),
            (.openKind("GITHUB_STEP_SUMMARY"), "cannot open GITHUB_STEP_SUMMARY 'out/Levels/a b.zip'"),
            (.write, "cannot write 'out/Levels/a b.zip'"), (.stat, "cannot stat 'out/Levels/a b.zip'"),
            (.list, "cannot list 'out/Levels/a b.zip'"), (.setMode, "cannot set the mode of 'out/Levels/a b.zip'"),
            (.setTime, "cannot set the time of 'out/Levels/a b.zip'"),
            (.flush, "cannot flush 'out/Levels/a b.zip' to the disk"), (.lock, "cannot lock 'out/Levels/a b.zip'"),
            (.openLockFile, "cannot open the lock file 'out/Levels/a b.zip'"),
            (.readLockFile, "cannot read the lock file 'out/Levels/a b.zip'"),
            (.createFolder, "cannot create folder 'out/Levels/a b.zip'"),
            (.openFolder, "cannot open folder 'out/Levels/a b.zip'"), (.remove, "cannot remove 'out/Levels/a b.zip'"),
            (.resolve, "cannot resolve 'out/Levels/a b.zip'"),
            (.move(to: "out/b.zip"), "cannot move 'out/Levels/a b.zip' to 'out/b.zip'"),
            (.makeLink, "cannot make the link 'out/Levels/a b.zip'"),
            (.readLink, "cannot read the link 'out/Levels/a b.zip'"),
            (.removeFromApp, "cannot remove 'out/Levels/a b.zip' from the app"),
            (.copyFrom, "cannot open the last build's 'out/Levels/a b.zip' to copy its unchanged entries"),
        ]
        for (operation, words) in expected {
            let error = ODRPackError.system(operation, path, ENOSPC)
            #expect(error == .io(operation, path: path, SystemError(ENOSPC)))
            #expect(error.description == words + ": " + reason)
            #expect(error.path == path && error.systemError == SystemError(ENOSPC) && error.jsonCode == "io")
        }
    }

    /// A path that is no link fails `linkTarget` with `readLink` and the system's EINVAL.
    @Test func readingALinkThatIsNoneNamesThePath() {
        #expect(throws: ODRPackError.io(.readLink, path: "/", SystemError(EINVAL))) { try SystemCall.linkTarget("/") }
    }

    @Test func aFileOverItsBoundSaysWhatItIs() {
        let error = ODRPackError.fileTooLarge("the manifest", path: "odrpack.yaml", limit: 4_194_304)
        #expect(
            error.description
                == "the manifest 'odrpack.yaml' is over 4194304 bytes, more than it can be: is it the right file?")
        #expect(error.jsonCode == "unusable-input" && error.path == "odrpack.yaml" && error.systemError == nil)
    }

    /// docs/store.md#failures: the request, the status, App Store Connect's `code: detail` each, and what to check
    /// after a 401 or a 403.
    @Test func anHTTPFailureNamesTheRequestTheStatusAndAppleErrors() {
        let request = StoreRequest(pack: "p", method: "POST", address: "/v1/backgroundAssetVersions")
        let errors = [
            AppleAPIError(code: "ENTITY_ERROR", detail: "no"), AppleAPIError(code: nil, detail: "d"),
            AppleAPIError(code: "A", detail: nil), AppleAPIError(code: "B", detail: ""),
        ]
        #expect(
            ODRPackError.http(request, status: 409, appleErrors: errors).description
                == "pack 'p': POST /v1/backgroundAssetVersions answered 409: ENTITY_ERROR: no; ?: d; A; B")
        #expect(
            ODRPackError.http(request, status: 401, appleErrors: []).description
                == "pack 'p': POST /v1/backgroundAssetVersions answered 401 (the API key was refused twice: check --key-id, --issuer-id and the private key)"
        )
        #expect(
            ODRPackError.http(StoreRequest(method: "GET", address: "/v1/apps"), status: 403, appleErrors: [])
                .description
                == "GET /v1/apps answered 403 (the API key's role may not be allowed to manage background assets)")
        #expect(ODRPackError.http(request, status: 500, appleErrors: []).jsonCode == "unusable-input")
    }

    @Test func aNetworkFailureNamesTheRequestAndWhatCameInstead() {
        let request = StoreRequest(method: "GET", address: "http://127.0.0.1:8080/v1/apps")
        let expected: [(NetworkFailure, String)] = [
            (
                .gaveUp(attempts: 6, lastCause: "503"),
                "GET http://127.0.0.1:8080/v1/apps failed 6 times (last: 503): App Store Connect or the network is not answering; run upload again later, it continues where this run stopped"
            ),
            (
                .redirected(status: 307, base: "http://127.0.0.1:8080"),
                "GET http://127.0.0.1:8080/v1/apps answered 307, a redirect: odrpack follows none, so that the API key's token goes to http://127.0.0.1:8080 only; check --api (or ODRPACK_ASC_API)"
            ),
            (
                .notJSON(status: 200),
                "GET http://127.0.0.1:8080/v1/apps answered 200 with a body that is not a JSON object"
            ),
            (
                .answerTooLarge(limit: 16 << 20),
                "GET http://127.0.0.1:8080/v1/apps answered with more than 16 MiB, which no App Store Connect answer holds: the transfer was stopped; check --api (or ODRPACK_ASC_API) and the network between"
            ),
            (
                .headersTooLarge(limit: 64 << 10),
                "GET http://127.0.0.1:8080/v1/apps answered with headers over 64 KiB, which no App Store Connect answer holds: the transfer was stopped; check --api (or ODRPACK_ASC_API) and the network between"
            ),
            (
                .unreadablePart("cannot read 'a.aar'"),
                "GET http://127.0.0.1:8080/v1/apps: cannot read 'a.aar': check the build folder, and run upload again"
            ),
            (.failed("connection refused"), "GET http://127.0.0.1:8080/v1/apps failed: connection refused"),
        ]
        for (failure, message) in expected {
            #expect(ODRPackError.network(request, failure).description == message)
            #expect(ODRPackError.network(request, failure).jsonCode == "unusable-input")
        }
    }

    @Test func aRefusalSaysWhatWasNotSent() {
        let expected: [(StoreRefusal, String)] = [
            (
                .nextPageOutside(base: "http://127.0.0.1:8080"),
                "App Store Connect answered with a next page outside http://127.0.0.1:8080: refusing to send the token there"
            ),
            (
                .tokenOutside(
                    StoreRequest(method: "GET", address: "http://127.0.0.1:8081/v1/apps"), base: "http://127.0.0.1:8080"
                ),
                "GET http://127.0.0.1:8081/v1/apps is outside http://127.0.0.1:8080: refusing to send the token there"
            ),
            (
                .partURLNotHTTPS(pack: "p"),
                "pack 'p': App Store Connect gave an upload URL that is not https: refusing to send the archive"
            ),
            (
                .partHeaderControlCharacter(pack: "p"),
                "pack 'p': App Store Connect gave an upload header holding a control character: refusing to send it"
            ),
            (
                .dryRunWrite(method: "POST", path: "/v1/backgroundAssets"),
                "a dry run sends GET requests only, not POST /v1/backgroundAssets"
            ),
        ]
        for (refusal, message) in expected {
            #expect(ODRPackError.refused(refusal).description == message)
            #expect(ODRPackError.refused(refusal).jsonCode == "unusable-input")
        }
    }

    /// docs/commands.md#scripts: the manifest that cannot be read, and the one found but not trusted.
    @Test func aManifestFailureSaysWhatToPass() {
        let expected: [(ManifestFailure, String)] = [
            (
                .missing("odrpack.yml"),
                "no manifest at 'odrpack.yml': run `odrpack init` to write one, or pass the manifest's path"
            ),
            (.pathHoldsNul("a"), "no manifest at 'a': the path holds a NUL"),
            (
                .isBuildFolder("out"),
                "'out' is an odrpack build folder, not a tag manifest: pass the odrpack.yml it was built from (report, diff, verify, thin, ipa, upload, submit and status take a build folder)"
            ),
            (.isFolder("Levels"), "'Levels' is a folder, not a manifest: pass the path of its odrpack.yml"),
            (
                .currentFolderUnnamed(SystemError(ENAMETOOLONG)),
                "cannot name the current folder (\(SystemError(ENAMETOOLONG).reason)): pass the manifest's absolute path, or cd to a shorter path"
            ),
            (
                .notFound(searched: ["/r/game/Art", "/r/game"], stoppedAt: "/r/game", fix: .initialize),
                "no odrpack.yml in '/r/game/Art', '/r/game' (the search stops at '/r/game', which holds .git): run `odrpack init` to write one, or pass the manifest's path as MANIFEST"
            ),
            (
                .notFound(searched: ["/a", "/"], stoppedAt: nil, fix: .passOtherName),
                "no odrpack.yml in '/a', '/': pass the manifest's path as MANIFEST"
            ),
            (
                .notFound(searched: ["/r/g"], stoppedAt: "/r/g", fix: .outsideRepository("/r/odrpack.yml")),
                "no odrpack.yml in '/r/g' (the search stops at '/r/g', which holds .git): '/r/odrpack.yml' lies outside this repository; pass its path as MANIFEST, or run from a folder inside it"
            ),
            (
                .untrusted(path: "../odrpack.yml", absolute: "/r/odrpack.yml", why: .groupWritable(gid: 4321)),
                "the manifest found, '../odrpack.yml' ('/r/odrpack.yml'), is not used: its group (gid 4321) may write it, so someone else could choose what odrpack packs; pass it as MANIFEST to use it anyway, or make it yours and writable only by you (chown, chmod go-w)"
            ),
            (
                .searchStartGone,
                "the current folder no longer exists (was it removed?): cd to an existing folder, or pass MANIFEST"
            ),
            (
                .searchStartUnnamed(SystemError(ENAMETOOLONG)),
                "cannot name the current folder (\(SystemError(ENAMETOOLONG).reason)): cd to a shorter path, or pass the manifest's path as MANIFEST"
            ),
            (
                .searchStartTooLong(bytes: 2000, limit: 1024),
                "the current folder's path is over 1024 bytes (2000): run from a shorter path, or pass the manifest's path as MANIFEST"
            ),
            (.noResourcesFolder("Assets"), "no folder 'Assets': pass the folder that holds the resources"),
            (
                .resourcesRootIsFile("a.png"),
                "'a.png' is a file: pass the folder that holds the resources (default: this folder)"
            ),
            (.exists("odrpack.yml"), "'odrpack.yml' exists: pass --force to overwrite it"),
        ]
        for (failure, message) in expected {
            #expect(ODRPackError.manifest(failure).description == message)
            #expect(ODRPackError.manifest(failure).jsonCode == "unusable-input")
        }
        #expect(
            ManifestFailure.untrusted(path: "p", absolute: "/p", why: .otherOwner(uid: 7)).description
                .contains("is not used: it belongs to another user (uid 7), so"))
        #expect(
            ManifestFailure.untrusted(path: "p", absolute: "/p", why: .worldWritable).description
                .contains("is not used: anyone may write it, so"))
    }

    @Test func aBuildManifestFailureSaysToRebuild() {
        let expected: [(BuildManifestFailure, String)] = [
            (.missing("out/x"), "'out/x' does not exist: pass a build folder or its odrpack-manifest.json"),
            (.notABuildFolder("out"), "'out' has no odrpack-manifest.json: is it a finished odrpack build folder?"),
            (
                .invalidJSON("m.json"),
                "'m.json' is not valid JSON (truncated or corrupt): rebuild it with odrpack build"
            ),
            (
                .incomplete("m.json", problem: "packs[0].size is missing"),
                "'m.json' is not a complete odrpack build manifest: packs[0].size is missing: rebuild it with odrpack build"
            ),
            (
                .schemaVersion("m.json", found: 2, reads: 1),
                "'m.json' has schemaVersion 2; this odrpack reads 1: rebuild it with this version"
            ),
            (.noBackgroundAssets, "the build manifest has no backgroundAssets: rebuild it with odrpack build"),
        ]
        for (failure, message) in expected {
            #expect(ODRPackError.buildManifest(failure).description == message)
            #expect(ODRPackError.buildManifest(failure).jsonCode == "unusable-input")
        }
    }

    /// docs/store.md#ipa: the input IPA ipa refuses, and the entry that made it refuse.
    @Test func anIPAFailureNamesTheIPAAndItsEntry() {
        let untrusted = "it is no IPA to trust"
        let expected: [(IPAFailure, String)] = [
            (
                .unreadable("a.ipa", reason: "no central directory"),
                "'a.ipa' is not a readable IPA (no central directory): pass the app's .ipa or its .app folder"
            ),
            (
                .appCount("a.ipa", count: 0),
                "'a.ipa' holds no apps in Payload/: an IPA holds exactly one Payload/NAME.app/"
            ),
            (
                .appCount("a.ipa", count: 2),
                "'a.ipa' holds 2 apps in Payload/: an IPA holds exactly one Payload/NAME.app/"
            ),
            (
                .overlappingEntry("a.ipa", entry: "x"),
                "'a.ipa' holds 'x' whose data overlaps another entry's: \(untrusted); rebuild it"
            ),
            (
                .moreThanFreeSpace("big.ipa", declared: 4_294_967_295, free: 10, folder: "/tmp/w"),
                "'big.ipa' declares 4294967295 bytes of content, more than the 10 bytes free where ipa works ('/tmp/w'): free some space, or check the IPA"
            ),
            (.duplicateEntry("a.ipa", entry: "x"), "'a.ipa' holds 'x' twice: rebuild the IPA"),
            (.entryInsideFile("a.ipa", entry: "f/x"), "'a.ipa' holds 'f/x' inside a file it holds: rebuild the IPA"),
            (
                .linkTargetTooLong("a.ipa", entry: "l", bytes: 5000, limit: 4096),
                "'a.ipa' holds the symbolic link 'l' whose target is 5000 bytes, over the 4096 a path may have: \(untrusted); rebuild it"
            ),
            (
                .entryLeavesArchive("a.ipa", entry: "../x"),
                "'a.ipa' holds the entry '../x', which leaves the archive: \(untrusted)"
            ),
            (.damagedEntry("a.ipa", entry: "x"), "'x' in 'a.ipa' is damaged (CRC or size mismatch)"),
            (
                .entrySizeMismatch("a.ipa", entry: "x", declared: 4, holds: 3),
                "'x' in 'a.ipa' declares 4 bytes but holds 3: \(untrusted); rebuild it"
            ),
            (
                .entrySizeMismatch("a.ipa", entry: "x", declared: 4, holds: nil),
                "'x' in 'a.ipa' declares 4 bytes but holds more: \(untrusted); rebuild it"
            ),
            (
                .unsupportedInApp("A.app/fifo"),
                "'A.app/fifo' is neither a file, a folder nor a symbolic link: an app bundle holds only those"
            ),
            (
                .unsupportedInIPA("w/fifo"),
                "'w/fifo' is neither a file, a folder nor a symbolic link: an IPA holds only those"
            ),
        ]
        for (failure, message) in expected {
            #expect(ODRPackError.ipa(failure).description == message)
            #expect(ODRPackError.ipa(failure).jsonCode == "unusable-input")
        }
    }

    /// docs/store.md#ipa: the app, the build folder, the output and the temporary folder ipa will not use, and what
    /// the sign command changed that it must not.
    @Test func anIPACheckNamesThePathOrWhatTheSignCommandChanged() {
        let rule = "it must only sign the app; no IPA written (fix the command given to --sign-command)"
        let expected: [(IPAFailure, String)] = [
            (.notAnAppFolder("/"), "'/' is not an app folder: pass the built app (MyGame.app)"),
            (
                .noBuildManifest("Game.app"),
                "'Game.app' holds no odrpack-manifest.json: pass the folder odrpack build wrote (APP BUILD_DIR, in that order)"
            ),
            (.outputIsFolder("out"), "--output 'out' is a folder: name the .ipa file to write"),
            (
                .outputFolderIsFile("f/g/x.ipa", file: "/w/f"),
                "the folder of --output 'f/g/x.ipa' is not a folder ('/w/f' is a file)"
            ),
            (
                .outputInsideInput("Game.app/x.ipa", input: "Game.app"),
                "--output 'Game.app/x.ipa' is inside 'Game.app', an input, which ipa never changes: write the IPA elsewhere"
            ),
            (
                .outputIsInput("Game.ipa", input: "Game.ipa"),
                "--output 'Game.ipa' is the same file as 'Game.ipa', an input, which ipa never changes: write the IPA elsewhere"
            ),
            (
                .noTemporaryFolder("/gone"),
                "the temporary folder '/gone' does not exist: set TMPDIR to a folder where ipa can work"
            ),
            (
                .signCommandPathNotText(FilePath(bytes: [0x2F, 0x4E, 0xE9, 0x2F, 0x41, 0x2E, 0x61, 0x70, 0x70])!),
                "the sign command cannot be given '/N\\xe9/A.app': a shell command is text, and that path is not UTF-8; write the IPA into a folder whose path is, or run ipa from a folder that holds it"
            ),
            (
                .signCommandChangedApp("Game.app", .removedApp),
                "the sign command removed the app itself in 'Game.app': \(rule)"
            ),
            (
                .signCommandChangedApp("Game.app", .removedInfoPlist),
                "the sign command removed Info.plist in 'Game.app': \(rule)"
            ),
            (
                .signCommandChangedApp("Game.app", .removedExecutableName),
                "the sign command removed CFBundleExecutable from Info.plist in 'Game.app': \(rule)"
            ),
            (
                .signCommandChangedApp("Game.app", .noExecutable("Contents/MacOS/Game")),
                "the sign command left no executable file 'Contents/MacOS/Game' (CFBundleExecutable) inside the app in 'Game.app': \(rule)"
            ),
            (
                .signCommandChangedApp("Game.app", .putBack("Level1/scene.json")),
                "the sign command put back 'Level1/scene.json', which ships in its pack in 'Game.app': \(rule)"
            ),
        ]
        for (failure, message) in expected {
            #expect(ODRPackError.ipa(failure).description == message)
            #expect(ODRPackError.ipa(failure).jsonCode == "unusable-input")
        }
    }

    /// docs/xcode.md: what import-xcode refuses, with what to do in Xcode or on the command line.
    @Test func anXcodeFailureSaysWhatToChange() {
        let expected: [(XcodeFailure, String)] = [
            (.notAProject("App"), "'App' is not an Xcode project: pass the path of a .xcodeproj folder"),
            (.unreadableProjectFile("E.xcodeproj"), "'E.xcodeproj' has no readable project.pbxproj"),
            (
                .corruptProjectFile("/p/B.xcodeproj/project.pbxproj"),
                "'/p/B.xcodeproj/project.pbxproj' is not a valid project file (corrupt or truncated)"
            ),
            (
                .noRootObject("/p/B.xcodeproj/project.pbxproj"),
                "'/p/B.xcodeproj/project.pbxproj' is not an Xcode project file: it has no PBXProject root object"
            ),
            (
                .groupCycle(project: "Loop.xcodeproj", cycle: "'one'"),
                "'Loop.xcodeproj' is malformed: group 'one' contains itself (the project's groups form a cycle); fix it in Xcode"
            ),
            (
                .malformed(project: "L.xcodeproj", problem: "a cycle"),
                "'L.xcodeproj' is malformed: a cycle; fix it in Xcode"
            ),
            (.invalidCatalogJSON("/p/C.json"), "'/p/C.json' is not valid JSON: fix or remove it in Xcode"),
            (
                .notAnApplication(target: "Kit", productType: "com.apple.product-type.framework"),
                "target 'Kit' is not an application (its product type is com.apple.product-type.framework): On-Demand Resources belong to iOS and tvOS apps; choose the app's target with --target"
            ),
            (
                .unsupportedSDK(target: "Mac", sdk: "macosx"),
                "target 'Mac' builds for macosx: On-Demand Resources exist only for iOS and tvOS apps; choose an iOS or tvOS target with --target"
            ),
            (
                .unsupportedPlatforms(target: "Mac", platforms: "macosx"),
                "target 'Mac' builds for macosx: On-Demand Resources exist only for iOS and tvOS apps; choose an iOS or tvOS target with --target"
            ),
            (
                .missingConfiguration(target: "TV", configuration: "Debug", available: ["Release", "Beta"]),
                "target 'TV' has no configuration 'Debug': choose one with --configuration (Release, Beta)"
            ),
            (
                .missingBundleIdentifier(target: "TV", configuration: "Release"),
                "target 'TV' has no PRODUCT_BUNDLE_IDENTIFIER in configuration 'Release': set it in Xcode or pass --setting PRODUCT_BUNDLE_IDENTIFIER=com.example.app"
            ),
            (
                .onDemandResourcesDisabled(target: "Lite", configuration: "Release"),
                "target 'Lite' sets ENABLE_ON_DEMAND_RESOURCES = NO in configuration 'Release': Xcode makes no asset packs for it. To import its tags anyway, pass --setting ENABLE_ON_DEMAND_RESOURCES=YES"
            ),
            (.settingCycle(setting: "A"), "A refers to itself through other settings: fix it in Xcode"),
            (
                .undefinedSetting(setting: "PRODUCT_BUNDLE_IDENTIFIER", uses: "TV_ID", configuration: "Release"),
                "PRODUCT_BUNDLE_IDENTIFIER uses $(TV_ID), which configuration 'Release' does not define: pass --setting TV_ID=VALUE"
            ),
            (
                .outputExists("odrpack.yml"),
                "'odrpack.yml' exists: pass --force to overwrite it, or --output another file"
            ),
        ]
        for (failure, message) in expected {
            #expect(ODRPackError.xcode(failure).description == message)
            #expect(ODRPackError.xcode(failure).jsonCode == "unusable-input")
        }
    }

    /// What changed under a build, said as the build's producers said it; `file-changed` in `--json`.
    @Test func aChangeSaysWhatChangedAndToBuildAgain() {
        let stable = "run the build again once it is stable"
        let expected: [(FileChange, String)] = [
            (.sincePlanned("Levels/a.png"), "'Levels/a.png' changed after it was planned: \(stable)"),
            (.whileRead("Levels/a.png"), "'Levels/a.png' changed while it was being read: \(stable)"),
            (
                .whileArchived("a.png", bytes: 3, expected: 4),
                "'a.png' changed while it was being archived (3 bytes, expected 4): \(stable)"
            ),
            (
                .shortenedWhileWritten("out/p.zip"),
                "'out/p.zip' became shorter while it was being written: run the build again"
            ),
            (
                .appearedInPackFolder("out/p/x"),
                "'out/p/x' appeared in the pack folder after it was written: run the build again"
            ),
            (
                .notAsLastBuildLeft("out/p.zip"),
                "'out/p.zip' is not as the last build left it: run the build again (or with --no-cache)"
            ),
            (
                .archiveWhileCopied("out/p.zip"),
                "'out/p.zip' changed while this build copied entries from it: run the build again"
            ),
            (
                .whilePackaged("a.png", pack: "voice"),
                "'a.png' changed while pack 'voice' was being packaged: \(stable)"
            ),
            (.buildManifestWhileReplayed, "odrpack-manifest.json changed while it was read: build again"),
            (.buildManifestWhileCopied, "'odrpack-manifest.json' changed while this build copied from it: build again"),
            (.packVanished("p.zip"), "pack 'p.zip' vanished while the build was finishing: run the build again"),
        ]
        for (change, message) in expected {
            #expect(ODRPackError.changed(change).description == message)
            #expect(ODRPackError.changed(change).jsonCode == "file-changed")
        }
    }

    @Test func aLibraryFailureSaysWhichLibraryAndItsStatus() {
        let expected: [(LibraryFailure, String)] = [
            (.compressorUnavailable(level: nil), "cannot set up libdeflate's compressor: out of memory"),
            (.compressorUnavailable(level: 9), "cannot set up libdeflate's compressor at level 9: out of memory"),
            (.decompressorUnavailable, "cannot set up libdeflate's decompressor: out of memory"),
            (.deflateStart(status: -4), "cannot start zlib's deflate (status -4)"),
            (.deflate(status: -2), "zlib's deflate failed (status -2)"),
            (.overBound(entry: "a.png"), "'a.png' deflated to more than zlib's bound"),
        ]
        for (failure, message) in expected {
            #expect(ODRPackError.library(failure).description == message)
            #expect(ODRPackError.library(failure).jsonCode == "library-failed")
        }
    }

    /// The one kind that still carries a sentence prints it whole and unchanged (the front end adds
    /// "odrpack: error: " once).
    @Test func usagePrintsItsMessageAsIs() {
        #expect(ODRPackError.usage("--flag does not apply").description == "--flag does not apply")
        #expect("\(ODRPackError.usage("--flag does not apply"))" == "--flag does not apply")
    }

    /// A failure Foundation reports without an errno prints the sentence its producer wrote, byte for byte.
    @Test func aFileFailurePrintsTheSentenceItReplaced() {
        let expected: [(FileFailure, String)] = [
            (
                .linkUnreadable("app/a b", reason: "The file couldn't be opened."),
                "cannot read the link 'app/a b': The file couldn't be opened."
            ),
            (.unreadable("A.app/Info.plist"), "cannot read 'A.app/Info.plist'"),
            (
                .rollBackFailed(
                    cause: "cannot remove 'A.app/x' from the app: Permission denied",
                    unrestored: ["A.app/x", "A.app/y"],
                    aside: "A.app/.odrpack-removed"),
                "cannot remove 'A.app/x' from the app: Permission denied; putting the app back also failed for "
                    + "A.app/x, A.app/y (the removed files are in 'A.app/.odrpack-removed')"
            ),
        ]
        for (failure, message) in expected {
            #expect(ODRPackError.file(failure).description == message)
            #expect(ODRPackError.file(failure).jsonCode == "io" && ODRPackError.file(failure).systemError == nil)
        }
    }
}
