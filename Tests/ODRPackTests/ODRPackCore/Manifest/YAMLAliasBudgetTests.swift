import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackCore

/// docs/manifest.md#yaml: aliases of aliases ("billion laughs") are bounded before the document is composed, so a
/// few hundred bytes cannot take exponential time or memory; ordinary aliases still work.
@Suite struct YAMLAliasBudgetTests {
    func parse(_ text: String) -> (TagManifest?, [Diagnostic]) {
        let result = ManifestLoader().parse(data: Data(text.utf8), displayPath: "odrpack.yml", directory: "/tmp")
        return (result.manifest, result.diagnostics)
    }

    /// Nested lists `&aN [*aN-1, *aN-1]`, used where the document is composed: as a mapping key (which YAML compares
    /// with every other key), as a value, and nested mappings. Each is one error at the alias that passed the bound,
    /// at once: the same text without the bound took 15 s at 22 levels and doubles with each level.
    @Test(arguments: ["untagged: {*a39 : 1}", "untagged: *a39", "exclude: [*a39, *a39]"])
    func nestedAliasesAreBounded(use: String) throws {
        var lines = ["version: 1", "bundle-id: com.example.x", "resources: []", "tags:", "  - &a0 [x, x]"]
        for level in 1..<40 { lines.append("  - &a\(level) [*a\(level - 1), *a\(level - 1)]") }
        lines.append(use)
        let started = Date()
        let (manifest, diagnostics) = parse(lines.joined(separator: "\n") + "\n")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(manifest == nil)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.code == .manifestSyntax)
        #expect(diagnostics.first?.message.hasPrefix("the alias *a") == true, "\(diagnostics)")
        #expect(
            diagnostics.first?.message.hasSuffix(
                "makes the manifest's aliases expand to more than 2000000 values (aliases of aliases double at every level): write the values out, or nest fewer aliases"
            ) == true)
        // Level k's anchor holds 4 * 2^k - 1 nodes: the second alias of level 18 (line 23) passes 2,000,000.
        #expect(diagnostics.first?.location == SourceLocation(file: "odrpack.yml", line: 23, column: 17))
    }

    /// Mappings of mappings double as lists do.
    @Test func nestedMappingsAreBounded() throws {
        var lines = ["version: 1", "bundle-id: com.example.x", "resources: []", "m0: &m0 {a: x, b: x}"]
        for level in 1..<30 { lines.append("m\(level): &m\(level) {a: *m\(level - 1), b: *m\(level - 1)}") }
        let (_, diagnostics) = parse(lines.joined(separator: "\n") + "\n")
        #expect(diagnostics.map(\.code) == [.manifestSyntax])
        #expect(diagnostics.first?.message.hasPrefix("the alias *m") == true, "\(diagnostics)")
    }

    /// Aliases used as YAML means them (one list of tags given to several entries) are read as before.
    @Test func ordinaryAliasesStillWork() throws {
        let (manifest, diagnostics) = parse(
            """
            version: 1
            bundle-id: com.example.x
            resources:
              - {path: A, tags: &shared [one, two]}
              - {path: B, tags: *shared}
              - {path: C, tags: *shared}

            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(manifest?.entries.map { $0.tags.map(\.value) } == [["one", "two"], ["one", "two"], ["one", "two"]])
    }

    /// The bound itself: exactly at it passes, one node past it fails.
    @Test func theBoundIsExact() {
        let text = "a: &a [x, x, x]\nb: [*a, *a]\n"
        #expect(YAMLAliasBudget.check(text, limit: 8) == nil)
        #expect(YAMLAliasBudget.check(text, limit: 7) == YAMLAliasBudget.Exceeded(line: 2, column: 9, anchor: "a"))
    }
}
