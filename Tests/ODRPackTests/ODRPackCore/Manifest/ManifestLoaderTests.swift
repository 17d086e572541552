import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackCore

@Suite struct ManifestLoaderTests {
    func load(_ text: String) -> (TagManifest?, [Diagnostic]) {
        let result = ManifestLoader().parse(
            data: Data(text.utf8), displayPath: "odrpack.yml",
            directory: FilePath("/tmp"))
        return (result.manifest, result.diagnostics)
    }

    @Test func readsEveryKeyOfTheSpecExample() throws {
        let (manifest, diagnostics) = load(
            """
            version: 1                       # required; the schema version
            bundle-id: com.example.bamboo
            resources-root: Resources
            profile: ios
            resources:
              - path: Levels/Level2
                tags: [level2]
              - path: Shared/paddle.png
                tags: [level1, level2]
              - glob: "Audio/**/*.caf"
                tags: [audio]
            initial-install: [level1]
            prefetch-order: [level2, level3]
            exclude: ["**/*.psd"]
            limits:
              max-pack-size: 512MB
              max-pack-count: 20
            """)
        #expect(diagnostics.isEmpty)
        let m = try #require(manifest)
        #expect(m.bundleID == "com.example.bamboo")
        #expect(m.resourcesRoot.value == "Resources")
        #expect(m.profile.value == "ios")
        #expect(m.entries.count == 3)
        #expect(m.entries[2].selector == .glob("Audio/**/*.caf"))
        #expect(m.entries[2].selectorLocation == SourceLocation(file: "odrpack.yml", line: 10, column: 11))
        #expect(m.initialInstall.map(\.value) == ["level1"])
        #expect(m.prefetchOrder.map(\.value) == ["level2", "level3"])
        #expect(m.limitOverrides[.maxPackSize] == .some(512_000_000))
        #expect(m.limits(format: .odr)?[.maxPackCount] == 20)
    }

    @Test func acceptsJSON() throws {
        let (manifest, diagnostics) = load(
            """
            {"version": 1, "bundle-id": "com.example.json",
             "resources": [{"path": "a", "tags": ["x"]}], "limits": {"max-pack-size": 1000}}
            """)
        #expect(diagnostics.isEmpty)
        #expect(manifest?.entries.first?.selector == .path("a"))
        #expect(manifest?.limitOverrides[.maxPackSize] == .some(1000))
    }

    @Test func malformedYAMLReportsLineAndColumn() throws {
        let (manifest, diagnostics) = load(
            "version: 1\nbundle-id: com.example.x\nresources:\n  - path: [unclosed\n    tags: [a]\n")
        #expect(manifest == nil)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.code == .manifestSyntax)
        #expect(diagnostic.location?.file == "odrpack.yml")
        #expect(diagnostic.location?.line == 5)
        #expect(diagnostic.location?.column == 9)
    }

    @Test func unknownKeySuggestsTheClosestKnownKey() throws {
        let (_, diagnostics) = load(
            "version: 1\nbundle-id: com.example.x\nprefetch-ordr: [a]\nresources:\n  - path: a\n    tagz: [b]\n")
        let unknown = diagnostics.filter { $0.code == .manifestUnknownKey }
        #expect(unknown.count == 2)
        #expect(unknown[0].message.contains("did you mean 'prefetch-order'?"))
        #expect(unknown[0].location == SourceLocation(file: "odrpack.yml", line: 3, column: 1))
        #expect(unknown[1].message.contains("did you mean 'tags'?"))
        #expect(unknown[1].location?.line == 6)
        #expect(unknown[1].location?.column == 5)
        // 'tagz' is 'tags' misspelt: its did-you-mean is the one error, not also a missing 'tags' (docs/manifest.md).
        #expect(!diagnostics.contains { $0.code == .manifestMissingKey })
    }

    @Test func missingKeys() {
        let (_, diagnostics) = load("resources:\n  - tags: [a]\n  - path: x\n")
        let missing = diagnostics.filter { $0.code == .manifestMissingKey }
        #expect(missing.count == 4)  // version, bundle-id, path/glob of entry 1, tags of entry 2
        #expect(missing.map(\.location?.line) == [1, 1, 2, 3])
        let (_, empty) = load("")
        #expect(empty.map(\.code) == [.manifestMissingKey])
    }

    @Test func wrongTypesAreSyntaxErrors() {
        let (_, diagnostics) = load(
            """
            version: "1"
            bundle-id: [com.example.x]
            resources:
              - path: a
                tags: level1
            initial-install: level1
            """)
        #expect(diagnostics.map(\.code) == [.manifestSyntax, .manifestSyntax, .manifestSyntax, .manifestSyntax])
        #expect(diagnostics.map(\.location?.line) == [1, 2, 5, 6])
        let (_, list) = load("- version: 1\n")
        #expect(list.map(\.code) == [.manifestSyntax])
    }

    @Test func invalidValues() {
        let (_, diagnostics) = load(
            """
            version: 2
            bundle-id: not a bundle id
            profile: iso
            resources:
              - path: a
                glob: "*.png"
                tags: [x]
              - path: b
                tags: []
            limits:
              max-pack-size: 12 parsecs
              max-pack-count: many
            """)
        #expect(diagnostics.map(\.code) == Array(repeating: .manifestInvalidValue, count: 7))
        #expect(diagnostics[2].message.contains("did you mean 'ios'?"))
    }

    @Test func pathsThatLeaveTheRoot() {
        let (_, diagnostics) = load(
            """
            version: 1
            bundle-id: com.example.x
            resources:
              - {path: ../secrets, tags: [a]}
              - {path: /etc/passwd, tags: [a]}
              - {glob: "../**/*.png", tags: [a]}
              - {path: a/../../b, tags: [a]}
              - {path: a/../b, tags: [a]}
            """)
        #expect(diagnostics.map(\.code) == Array(repeating: .pathOutsideRoot, count: 4))
        #expect(diagnostics.map(\.location?.line) == [4, 5, 6, 7])
    }

    @Test func tagProblems() {
        let (manifest, diagnostics) = load(
            """
            version: 1
            bundle-id: com.example.x
            resources:
              - {path: a, tags: ["", " padded", ok, "a/b"]}
            initial-install: [ok, ok]
            prefetch-order: [ok]
            """)
        #expect(
            diagnostics.map(\.code) == [.tagInvalid, .tagInvalid, .tagInvalid, .tagListedTwice, .tagInBothCategories])
        #expect(diagnostics.map(\.severity) == [.error, .warning, .error, .warning, .warning])
        #expect(manifest == nil)  // an empty tag is an error
    }

    @Test func duplicateKeysAreSyntaxErrors() {
        let (_, diagnostics) = load("version: 1\nversion: 1\nbundle-id: com.example.x\n")
        #expect(diagnostics.map(\.code) == [.manifestSyntax])
    }

    @Test func bundleIdentifiers() {
        #expect(BundleIdentifier.isValid("com.example.bamboo"))
        #expect(BundleIdentifier.isValid("com.example-co.App2"))
        #expect(!BundleIdentifier.isValid("bamboo"))
        #expect(!BundleIdentifier.isValid("com..example"))
        #expect(!BundleIdentifier.isValid("com.exa mple"))
        #expect(!BundleIdentifier.isValid("com.exämple"))
    }
}
