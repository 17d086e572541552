import Foundation
import Testing

@testable import ODRPackBuildFormat

/// `--url-prefix` (docs/build-output.md): an absolute http(s) URL with a host, a valid port, no credentials, query or
/// fragment; the pack's name follows one "/".
@Suite struct URLPrefixTests {
    @Test(arguments: [
        "https://cdn.example.com/odr", "https://cdn.example.com/odr/", "http://127.0.0.1:8080/packs/",
        "https://cdn.example.com", "https://[::1]:443/x", "https://cdn.example.com/a%20b/",
    ])
    func goodPrefixesPass(prefix: String) {
        #expect(URLPrefix.problem(prefix) == nil)
    }

    @Test(arguments: [
        "cdn.example.com/odr", "/srv/packs", "file:///srv/packs", "ftp://cdn.example.com/", "https:///packs",
        "https://user:secret@cdn.example.com/", "https://user@cdn.example.com/", "https://cdn.example.com/odr?x=1",
        "https://cdn.example.com/odr#top", "https://cdn.example.com:0/", "https://cdn.example.com:65536/",
        "https://cdn.example.com:http/", "https://cdn.example.com:/", "https://cdn.example.com/a b", "", "https://",
        "https://[::1/x", "HTTPS//cdn",
    ])
    func badPrefixesAreRefused(prefix: String) {
        let problem = URLPrefix.problem(prefix)
        #expect(problem?.hasPrefix("--url-prefix '\(prefix)'") == true, "\(problem ?? "nil")")
    }

    @Test func backgroundAssetsNeedHTTPS() {
        #expect(URLPrefix.problem("http://cdn.example.com/p", requireHTTPS: true)?.contains("HTTPS") == true)
        #expect(URLPrefix.problem("https://cdn.example.com/p", requireHTTPS: true) == nil)
    }

    @Test func oneSlashJoinsThePrefixAndTheName() {
        #expect(
            URLPrefix.join("https://cdn.example.com/odr", "a.assetpack") == "https://cdn.example.com/odr/a.assetpack")
        #expect(
            URLPrefix.join("https://cdn.example.com/odr/", "a.assetpack") == "https://cdn.example.com/odr/a.assetpack")
    }

    /// Through the binary: the written manifest's URL has one "/" between, and a bad prefix is exit 64 before
    /// anything is written, in both formats.
    @Test func theBuildJoinsWithOneSlashAndRefusesBadPrefixes() throws {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.url\nresources:\n  - {path: a.txt, tags: [a]}\n")
        try project.file("a.txt", "hello")
        let built = try CommandRunner.run(
            ["build", "-o", "out", "--url-prefix", "https://cdn.example.com/odr"], in: project.root)
        #expect(built.status == 0, "\(built.stderr)")
        let plist = try Data(contentsOf: URL(fileURLWithPath: project.path("out/AssetPackManifest.plist")))
        let document = try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any]
        let resources = document?["resources"] as? [[String: Any]]
        let url = try #require(resources?.first?["URL"] as? String)
        #expect(url.hasPrefix("https://cdn.example.com/odr/com.example.url.a-"))
        for bad in ["cdn.example.com/odr", "https://cdn.example.com/odr?v=1", "https://u:p@cdn.example.com/"] {
            for format in ["odr", "background-assets"] {
                let refused = try CommandRunner.run(
                    ["build", "-o", "bad", "--format", format, "--url-prefix", bad], in: project.root)
                #expect(refused.status == 64, "\(format) \(bad): \(refused.stderr)")
                #expect(refused.stderr.contains("--url-prefix"))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: project.path("bad")))
    }
}
