import Foundation
import Testing

/// The seed corpora the replay tests take their cases from: an empty one would make those tests run no case.
@Suite struct FuzzCorpusTests {
    @Test(arguments: [
        "FuzzTagManifest", "FuzzGlob", "FuzzBuildManifest", "FuzzStreamingZip", "FuzzPbxproj", "FuzzBinaryPlist",
    ])
    func everyTargetHasSeeds(target: String) {
        #expect(!FuzzSeeds.names(target).isEmpty)
    }
}
