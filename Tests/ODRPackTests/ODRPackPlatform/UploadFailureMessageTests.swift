import Foundation
import ODRPackBuildFormat
import Testing

@testable import ODRPackPlatform

/// docs/store.md#upload, #submit, #status: what upload, submit and status say when they cannot go on, made from the
/// facts of `UploadFailure` and pinned here word for word as the producers wrote them before they held facts; every
/// one is exit 2 and `unusable-input`. (`UploadFailureTests` is the stand-in's end-to-end suite of failed requests.)
@Suite struct UploadFailureMessageTests {
    @Test func eachFailureSaysWhatAndWhatToDo() {
        let expected: [(UploadFailure, String)] = [
            (.curlMissing, "upload needs libcurl: install libcurl4 (Debian, Ubuntu) or curl (Fedora, Alpine)"),
            (
                .recordUnreadable("out/odrpack-upload.json", SystemError(EACCES)),
                "cannot read 'out/odrpack-upload.json': " + SystemError(EACCES).reason
            ),
            (
                .recordDamaged("out/odrpack-upload.json"),
                "'out/odrpack-upload.json' is not an odrpack upload record: move it away, and run upload again (it asks App Store Connect)"
            ),
            (
                .noApp(bundleID: "com.example.game"),
                "App Store Connect has no app with bundle id 'com.example.game' that this API key can see: pass --app APPLE_ID (the app's Apple ID, App Information in App Store Connect)"
            ),
            (
                .assetPackIDCharacters("level_1"),
                "asset pack id 'level_1' holds characters other than A-Z a-z 0-9 -, which App Store Connect rejects: build again with this odrpack, which makes ids of those characters only"
            ),
            (
                .archiveNotBuilt("out/BackgroundAssets/p.aar"),
                "'out/BackgroundAssets/p.aar' is not the archive the build wrote (its size or SHA-256 differs): run odrpack verify, and build again"
            ),
            (
                .archiveEmpty("out/BackgroundAssets/p.aar"),
                "'out/BackgroundAssets/p.aar' is empty: App Store Connect takes no empty archive; build again"
            ),
            (
                .notAppleArchive(pack: "p", path: "out/BackgroundAssets/p.aar"),
                "pack 'p': 'out/BackgroundAssets/p.aar' is not an Apple Archive: was it made by Apple's ba-package?"
            ),
            (
                .unmakeableURL(base: "https://api.appstoreconnect.apple.com", path: "/v1/a b"),
                "cannot make a URL of 'https://api.appstoreconnect.apple.com/v1/a b'"
            ),
            (
                .missingResource("version", pack: "p"),
                "pack 'p': App Store Connect answered without the version it should return"
            ),
            (
                .missingResource("review submission 7", pack: nil),
                "App Store Connect answered without the review submission 7 it should return"
            ),
            (
                .uploadURLsExpired(pack: "p", times: 4),
                "pack 'p': App Store Connect's upload URLs expired 4 times before the parts were sent: check this machine's clock, and run upload again"
            ),
            (
                .operationsUncovered(pack: "p", bytes: 1_048_577),
                "pack 'p': App Store Connect's upload operations do not cover the archive's 1048577 bytes once"
            ),
            (
                .assetPackIDArchived("p"),
                "pack 'p': App Store Connect has this asset pack id archived, and archiving is permanent: rename one of the pack's tags to get a new id, then build and upload again"
            ),
            (
                .notComplete([.init(pack: "p", version: "3", state: "PROCESSING")]),
                "pack 'p': version 3 is PROCESSING, not COMPLETE: App Review takes processed versions only, and nothing was submitted; wait for processing (odrpack status BUILD_DIR --until complete), then submit again"
            ),
            (
                .notComplete([
                    .init(pack: "p", version: nil, state: "FAILED"), .init(pack: "q", version: "2", state: nil),
                ]),
                "pack 'p': version ? is FAILED; pack 'q': version 2 is in no state, not COMPLETE: App Review takes processed versions only, and nothing was submitted; wait for processing (odrpack status BUILD_DIR --until complete), then submit again"
            ),
        ]
        for (failure, message) in expected {
            #expect(failure.description == message)
            #expect(ODRPackError.upload(failure).description == message)
            #expect(ODRPackError.upload(failure).jsonCode == "unusable-input")
        }
    }

    /// The words after the archive's path are those verify says of the same archive (`verify-ba-archive-format`).
    @Test func aFileNotAnAppleArchiveIsSaidAsVerifySaysIt() {
        #expect(
            UploadFailure.notAppleArchive(pack: "p", path: "a.aar").description
                == "pack 'p': 'a.aar' is " + AppleArchiveSignature.problem)
    }
}
