import Foundation
import Testing
@testable import ODRPackKit

/// The manifest reader behind `diff` and `verify` reads back exactly what the writer wrote.
@Suite struct BuildManifestReaderTests {
    @Test func readsBackEscapedAndNonASCIIStrings() throws {
        let tricky = "Levels/ünï \"quoted\" tab\there\u{1}\\back 🎮.json"
        let document = JSONValue.object([
            ("schemaVersion", .int(1)), ("bundleId", .string("com.example.x")),
            ("initialInstallTags", .strings(["a"])), ("prefetchOrder", .strings([])),
            ("extra", .object([("nested", .array([.null, .bool(true), .double(-1.5e3)]))])),
            ("tags", .array([.object([("name", .string("a")), ("category", .string("initial-install")),
                                      ("size", .int(5)), ("packs", .strings(["p"]))])])),
            ("packs", .array([.object([
                ("id", .string("p")), ("file", .string("OnDemandResources/p.assetpack")), ("tags", .strings(["a"])),
                ("category", .string("initial-install")), ("priority", .double(0.9500000000000001)), ("size", .int(5)),
                ("archiveSize", .null), ("files", .array([.object([("path", .string(tricky)), ("size", .int(5)),
                                                                   ("sha256", .string("ab"))])])),
            ])])),
        ]).serialized()
        let manifest = try Data(document.utf8).withUnsafeBytes { try BuildManifest(json: $0.bindMemory(to: UInt8.self)) }
        #expect(manifest.packs.first?.files.first?.path == tricky)
        #expect(manifest.packs.first?.priority == 0.9500000000000001)
        #expect(manifest.packs.first?.archiveSize == nil)
        #expect(manifest.tags.first?.packs == ["p"])
        let surrogate = #"{"schemaVersion": 1, "bundleId": "\ud83c\udfae\u00e9", "initialInstallTags": [], "prefetchOrder": [], "tags": [], "packs": []}"#
        let decoded = try Data(surrogate.utf8).withUnsafeBytes { try BuildManifest(json: $0.bindMemory(to: UInt8.self)) }
        #expect(decoded.bundleId == "🎮é")
    }

    @Test func rejectsTruncatedAndMisshapenDocuments() {
        func read(_ text: String) -> (any Error)? {
            do {
                _ = try Data(text.utf8).withUnsafeBytes { try BuildManifest(json: $0.bindMemory(to: UInt8.self)) }
                return nil
            } catch { return error }
        }
        #expect(read(#"{"schemaVersion": 1, "bundleId": "x""#) is JSONReader.Failure)
        #expect(read(#"{"schemaVersion": 2, "packs": 7}"#) is BuildManifest.SchemaMismatch)
        if case .shape? = read(#"{"schemaVersion": 1, "bundleId": "x", "initialInstallTags": [], "prefetchOrder": [], "tags": [], "packs": 7}"#) as? JSONReader.Failure {} else {
            Issue.record("a list of the wrong type is a shape problem")
        }
        #expect(read(#"{"schemaVersion": 1} trailing"#) is JSONReader.Failure)
    }

    /// Inputs that once crashed the reader or passed as clean: each is now a failure the tool reports (exit 2).
    @Test(arguments: [
        #"{"schemaVersion": 1, "bundleId": "\uD800\u0041"}"#,
        #"{"schemaVersion": 1, "bundleId": "\uDC00"}"#,
        #"{"schemaVersion": 1, "bundleId": "\uD800"}"#,
        #"{"schemaVersion": 1, "totals": {"size": 99999999999999999999999999}}"#,
        #"{"schemaVersion": 1, "totals": {"size": 1e999}}"#,
        #"{"schemaVersion": 1, "totals": {"size": 012}}"#,
        #"{"schemaVersion": 1, "totals": truth}"#,
        "{\"schemaVersion\": 1, \"bundleId\": \"tab\u{9}here\"}",
        #"{"schemaVersion": 1, "bundleId": "\x41"}"#,
        #"{"schemaVersion": 1, "packs": [{"id": "p", "file": "f", "tags": [], "category": "on-demand", "size": -1, "files": []}]}"#,
        "{\"schemaVersion\": 1, \"x\": " + String(repeating: "[", count: 100_000),
    ])
    func malformedInputIsAFailureNotACrash(text: String) {
        let bytes = Array(text.utf8)
        #expect(throws: (any Error).self) {
            _ = try bytes.withUnsafeBufferPointer { try BuildManifest(json: $0) }
        }
    }

    @Test func invalidUTF8InAStringIsAFailure() {
        let bytes = Array(#"{"schemaVersion": 1, "bundleId": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: JSONReader.Failure.self) { _ = try bytes.withUnsafeBufferPointer { try BuildManifest(json: $0) } }
    }

    @Test func theCrashInputsExitTwoWithAMessage() throws {
        let project = try TemporaryProject()
        try project.file("out/odrpack-manifest.json", #"{"schemaVersion": 1, "bundleId": "\uD800\u0041"}"#)
        for command in [["verify", "out"], ["diff", "out", "out"]] {
            let output = try CommandRunner.run(command, in: project.root)
            #expect(output.status == 2 && output.stderr.contains("not valid JSON"), "\(command)")
        }
    }
}
