import Foundation
import Testing

@testable import ODRPackCore

/// docs/background-assets.md: `url-prefix` in the manifest's background-assets section, so CI need not repeat
/// `--url-prefix`; the command line wins; the manifest's value is checked as `--url-prefix` is, at its line.
@Suite struct ManifestURLPrefixTests {
    /// The `url` of every asset pack in a build's download-manifest.json.
    func urls(_ fixture: BackgroundAssetsFixture, _ build: String) throws -> [String] {
        let document = try fixture.json("\(build)/BackgroundAssets/site/download-manifest.json")
        return (document["assetPacks"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }
    }

    @Test func theManifestsPrefixServesAndTheCommandLineWins() throws {
        let fixture = try BackgroundAssetsFixture(
            background: "background-assets: {hosting: self, url-prefix: \"https://cdn.example.com/game\"}")
        let plain = try fixture.build([], output: "manifest")
        #expect(plain.status == 0, "\(plain.stderr)")
        let fromManifest = try urls(fixture, "manifest")
        #expect(!fromManifest.isEmpty)
        #expect(fromManifest.allSatisfy { $0.hasPrefix("https://cdn.example.com/game/") }, "\(fromManifest)")
        let given = try fixture.build(["--url-prefix", "https://other.example.com/p"], output: "given")
        #expect(given.status == 0, "\(given.stderr)")
        let fromCommandLine = try urls(fixture, "given")
        #expect(fromCommandLine.allSatisfy { $0.hasPrefix("https://other.example.com/p/") }, "\(fromCommandLine)")
    }

    @Test(arguments: [
        (
            "{hosting: self, url-prefix: \"http://cdn.example.com/game\"}",
            "url-prefix 'http://cdn.example.com/game' is not an https:// URL"
        ),
        (
            "{hosting: apple, url-prefix: \"https://cdn.example.com/game\"}",
            "'url-prefix' applies to hosting self only"
        ),
        ("{hosting: self, url-prefx: \"https://cdn.example.com/game\"}", "did you mean 'url-prefix'"),
    ])
    func aWrongPrefixIsAManifestError(section: String, message: String) throws {
        let fixture = try BackgroundAssetsFixture(background: "background-assets: \(section)")
        let output = try CommandRunner.run(
            ["validate", "--format", "background-assets"], in: fixture.project.root)
        #expect(output.status == 1, "\(output.stderr)")
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stderr.contains("odrpack.yml:"), "\(output.stderr)")
    }
}
