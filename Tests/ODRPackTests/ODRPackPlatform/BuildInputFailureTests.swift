import Foundation
import Testing

@testable import ODRPackPlatform

/// `build`'s failures with what it was given carry their facts (the published download manifest, the pack, its
/// version) and are said in one place: each prints, byte for byte, the sentence its producer wrote before it held
/// facts, and keeps the `--json` code `unusable-input` (docs/commands.md#json).
@Suite struct BuildInputFailureTests {
    static let expected: [(BuildInputFailure, String)] = [
        (
            .publishedUnreadable("live.json", SystemError(ENOENT)),
            "cannot read the published download manifest 'live.json': \(SystemError(ENOENT).reason)"
        ),
        (
            .publishedNotJSON("live.json"),
            "'live.json' is not valid JSON: pass the download-manifest.json that is live on the server (--published)"
        ),
        (
            .publishedNotADownloadManifest("live.json", problem: "assetPacks[0].downloadSize is missing"),
            "'live.json' is not a Background Assets download manifest: assetPacks[0].downloadSize is missing; pass "
                + "the download-manifest.json that is live on the server"
        ),
        (
            .versionExhausted(pack: "a-1", version: 9_223_372_036_854_775_807),
            "pack 'a-1' is at version 9223372036854775807, the largest there is: it cannot get a newer one; use new "
                + "tags for new content"
        ),
        (
            .sizeOverflow,
            "the files of a pack add up to more than 9223372036854775807 bytes [size-overflow]: check for sparse files"
        ),
    ]

    @Test func eachFailurePrintsItsSentence() {
        for (failure, message) in Self.expected {
            #expect(failure.description == message)
            #expect(ODRPackError.buildInput(failure).description == message)
            #expect(ODRPackError.buildInput(failure).jsonCode == "unusable-input")
        }
    }
}
