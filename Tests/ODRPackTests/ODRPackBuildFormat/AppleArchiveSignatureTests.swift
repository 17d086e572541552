import ODRPackBuildFormat
import Testing

/// The Apple Archive signatures `upload` and `verify` accept (docs/store.md#trust-boundaries), byte for byte.
@Suite struct AppleArchiveSignatureTests {
    @Test func theSignaturesOfAppleArchivesAreAccepted() {
        for signature in ["AA01", "YAA1", "AEA1", "pbz-", "pbz4", "pbzb", "pbze", "pbzf", "pbzx", "pbzz"] {
            #expect(AppleArchiveSignature.matches(Array((signature + "rest").utf8)), "\(signature)")
            #expect(AppleArchiveSignature.matches(Array(signature.utf8)), "\(signature) alone")
        }
    }

    @Test func anythingElseIsRefused() {
        for text in [
            "", "AA0", "AA02", "aa01", "YAA0", "AEA2", "pbz", "pbza", "pbzX", "pbz ", "PBZx", "ba-package-standin 1\n",
            "PK\u{3}\u{4}", "{\"a\": 1}", "\u{0}AA01",
        ] {
            #expect(!AppleArchiveSignature.matches(Array(text.utf8)), "\(text)")
        }
        #expect(AppleArchiveSignature.problem == "not an Apple Archive: was it made by Apple's ba-package?")
    }
}
