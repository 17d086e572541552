import Testing

@testable import ODRPackVerify

@Suite struct OnDemandResourcesVerifierTests {
    /// Each entry's folder entry must come before it (docs/build-output.md); its name is what precedes the last "/"
    /// byte, a "/" before a combining mark included.
    @Test(
        arguments: [
            ("a/b/c", "a/b/"), ("a/b/c/", "a/b/"), ("a", nil), ("a/", nil), ("a/\u{301}b", "a/"), ("é/x", "é/"),
        ] as [(String, String?)])
    func theFolderEntryBeforeAnEntryIsFoundByBytes(name: String, folder: String?) {
        #expect(OnDemandResourcesVerifier.folderEntry(of: name).map(String.init) == folder)
    }
}
