import Testing

@testable import ODRPackPlatform

/// A build folder's failures carry their facts (the folder, the reader's reason, the two builds' apps and formats)
/// and are said in one place: each prints, byte for byte, the sentence its producer wrote before it held facts, and
/// keeps the `--json` code `unusable-input` (docs/commands.md#json).
@Suite struct BuildFolderFailureTests {
    static let expected: [(BuildFolderFailure, String)] = [
        (
            .interrupted("out"),
            "'out' was left by an interrupted build (it holds '.odrpack-tmp-previous-manifest.json'): its packs are "
                + "part old, part new; run the build again"
        ),
        (
            .previousManifestUnreadable(folder: "out", reason: "not JSON"),
            "the previous build's odrpack-manifest.json in 'out' cannot be read (not JSON), so the packs' versions "
                + "are unknown and would restart at 0: restore it, or pass --reset-versions to start every pack at "
                + "version 0"
        ),
        (
            .differentApps(old: "com.a.game", new: "com.b.game"),
            "the builds are of different apps ('com.a.game' and 'com.b.game'): pack ids include the bundle id, so "
                + "nothing could match"
        ),
        (
            .differentFormats(old: "ODR", new: "Background Assets"),
            "one build is ODR and the other Background Assets: compare two builds of the same --format"
        ),
    ]

    @Test func eachFailurePrintsItsSentence() {
        for (failure, message) in Self.expected {
            #expect(failure.description == message)
            #expect(ODRPackError.buildFolder(failure).description == message)
            #expect(ODRPackError.buildFolder(failure).jsonCode == "unusable-input")
        }
    }
}
