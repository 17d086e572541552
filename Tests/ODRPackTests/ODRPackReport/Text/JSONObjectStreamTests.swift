import Foundation
import Testing

@testable import ODRPackBuildFormat
@testable import ODRPackCore
@testable import ODRPackDiff
@testable import ODRPackFormats
@testable import ODRPackPlatform
@testable import ODRPackReport
@testable import ODRPackThin

/// The `--json` documents that list every file are written as they are made (SPEC 7, Bounded): each is the bytes of
/// the whole-document form it replaces, `JSONEnvelope.wrap(document).serializedBytes()`.
@Suite struct JSONObjectStreamTests {
    static let strange = "a \"q\"\t\\ é🎮 </script>\u{1}"

    /// Members of every kind, a one-line strings array written a string at a time, and no member at all.
    @Test func membersAreTheObjectsBytes() throws {
        let members: [(String, JSONValue)] = [
            ("schemaVersion", .int(1)), (Self.strange, .string(Self.strange)), ("none", .null),
            ("list", .strings(["x", Self.strange])), ("empty", .strings([])),
            ("nested", .object([("a", .array([.object([("b", .int(-2))])])), ("c", .object([]))])),
        ]
        let streamed = try JSONObjectStream.bytes { stream in
            for (key, value) in members {
                if case .array(let values) = value, key == "list" || key == "empty" {
                    try stream.member(key, strings: values.map { if case .string(let s) = $0 { s } else { "" } })
                } else {
                    try stream.member(key, value)
                }
            }
        }
        #expect(streamed == JSONValue.object(members).serializedBytes())
        #expect(try JSONObjectStream.bytes { _ in } == JSONValue.object([]).serializedBytes())
    }

    /// An object document's members spliced in, first or after others, handed on in chunks of any size (here one
    /// byte, two, and all at once): the bytes of the object that holds them all.
    @Test(arguments: [1, 2, 1 << 20]) func splicedMembersAreTheObjectsBytes(chunk: Int) throws {
        let inner: [(String, JSONValue)] = [
            ("schemaVersion", .int(1)), ("packs", .array([.object([("id", .string("p"))])])),
        ]
        let innerBytes = JSONValue.object(inner).serializedBytes()
        func write(_ sink: inout DocumentSink) throws {
            var offset = 0
            while offset < innerBytes.count {
                let end = min(offset + chunk, innerBytes.count)
                sink.buffer.append(contentsOf: innerBytes[offset..<end])
                try sink.flush()
                offset = end
            }
        }
        let spliced = try JSONObjectStream.bytes { stream in
            try stream.members(of: write)
            try stream.member("diagnostics", .array([]))
        }
        #expect(spliced == JSONValue.object(inner + [("diagnostics", .array([]))]).serializedBytes())
        let after = try JSONObjectStream.bytes { stream in
            try stream.member("first", .bool(true))
            try stream.members(of: write)
        }
        #expect(after == JSONValue.object([("first", .bool(true))] + inner).serializedBytes())
        // Not an object with members: an error, not a broken document.
        #expect(throws: ODRPackError.self) {
            try JSONObjectStream.bytes { try $0.members { try $0.append(Array("{}\n".utf8)) } }
        }
    }

    /// `plan --json`: the manifest's members a pack at a time, the diagnostics, and with `--list-untagged` the files
    /// that stay in the app; a project with errors and no readable plan; each the whole document's bytes.
    @Test func planIsTheWholeDocumentsBytes() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.stream
            resources-root: R
            resources:
              - {path: A, tags: [alpha]}
              - {path: B, tags: [alpha, beta]}
              - {path: C, tags: [gamma]}
            initial-install: [alpha]
            """)
        try project.file("R/A/a.json", String(repeating: "a", count: 300))
        try project.file("R/A/\(Self.strange).json", "q")
        try project.file("R/B/b.json", "b")
        try project.file("R/C/c.bin", "c")
        try project.file("R/stay.txt", "stays")
        let result = try ProjectPlanner().plan(manifestPath: project.manifestPath, format: .odr)
        #expect(result.readablePlan != nil)
        for list in [nil, ["stay.txt", Self.strange], []] {
            var document = PlanReport.json(result)
            if let list, case .object(var members) = document {
                members.append(("untaggedFiles", .strings(list)))
                document = .object(members)
            }
            let streamed = try JSONObjectStream.bytes { try PlanReport.writeJSON(result, untaggedFiles: list, to: &$0) }
            #expect(streamed == JSONEnvelope.wrap(document).serializedBytes())
        }

        try project.manifest("version: 1\nbundle-id: com.example.stream\nresources-root: Missing\nresources: []\n")
        let broken = try ProjectPlanner().plan(manifestPath: project.manifestPath, format: .odr)
        #expect(broken.diagnostics.hasErrors)
        let streamed = try JSONObjectStream.bytes { try PlanReport.writeJSON(broken, to: &$0) }
        #expect(streamed == JSONEnvelope.wrap(PlanReport.json(broken)).serializedBytes())
    }

    /// `thin --json` of a dry run and of a real one: the whole document's bytes.
    @Test func thinIsTheWholeDocumentsBytes() throws {
        let project = try ThinCommandTests().builtGame()
        for dryRun in [true, false] {
            var options = AppThinner.Options(
                appPath: FilePath(project.path("Game.app")), buildPath: project.path("out"))
            options.dryRun = dryRun
            let result = try AppThinner(options: options).run(
                try BuildFolderSession.open(forReading: FilePath(options.buildPath)))
            #expect(result.removed.count == 6)
            let streamed = try JSONObjectStream.bytes { try ThinReport.writeJSON(result, to: &$0) }
            #expect(streamed == JSONEnvelope.wrap(ThinReport.json(result)).serializedBytes())
        }
    }
}

extension JSONObjectStreamTests {
    /// `build --json`, written and then with nothing changed (the last build's file streamed): odrpack-manifest.json's
    /// members byte for byte, then the diagnostics and what was done, as the whole-document form printed them.
    @Test func buildIsTheManifestsBytesAndWhatWasDone() throws {
        let project = try BuildCommandTests().gameProject()
        let built = try CommandRunner.run(["build", "-o", "out", "--json"], in: project.root)
        #expect(built.status == 0, "\(built.stderr)")
        let manifest = try String(contentsOfFile: project.path("out/odrpack-manifest.json"), encoding: .utf8)
        #expect(manifest.hasPrefix("{\n  \"schemaVersion\": 1,\n") && manifest.hasSuffix("\n  ]\n}\n"))
        let ids = try #require((try built.json()["build"] as? [String: Any])?["written"] as? [String])
        #expect(ids.count == 4)
        let list = ids.map { "\"\($0)\"" }.joined(separator: ", ")
        #expect(
            built.stdout
                == manifest.dropLast(3)
                + ",\n  \"diagnostics\": [],\n  \"allowed\": [],\n  \"build\": {\n    \"written\": [\(list)],\n"
                + "    \"reused\": [],\n    \"removed\": []\n  }\n}\n")
        let again = try CommandRunner.run(["build", "-o", "out", "--json"], in: project.root)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            again.stdout
                == manifest.dropLast(3)
                + ",\n  \"diagnostics\": [],\n  \"allowed\": [],\n  \"build\": {\n    \"written\": [],\n"
                + "    \"reused\": [\(list)],\n    \"removed\": []\n  }\n}\n")
    }
}

extension JSONObjectStreamTests {
    /// `diff --json` of random builds (moves, edits, NFC and NFD spellings, repeated paths and pack ids, names that
    /// need escapes): each pack's file lists and the moves written a path at a time are the whole document's bytes.
    @Test func diffIsTheWholeDocumentsBytes() throws {
        var random = BuildDiffTests.Generator(state: 38)
        for round in 0..<TestLevel.rounds(60, full: 500) {
            let diff = BuildDiff(old: BuildDiffTests.build(&random), new: BuildDiffTests.build(&random))
            let streamed = try JSONObjectStream.bytes { try DiffReport.writeJSON(diff, to: &$0) }
            let whole = JSONEnvelope.wrap(DiffReport.json(diff)).serializedBytes()
            #expect(streamed == whole, "round \(round)")
            if streamed != whole { return }
        }
    }
}

extension JSONObjectStreamTests {
    static func manifest(_ packs: [(id: String, paths: [String])]) -> BuildManifest {
        BuildManifest(
            schemaVersion: 1, format: .odr, bundleId: "com.x", profile: "default", limits: [], initialInstallTags: [],
            prefetchOrder: [], appBundleFiles: 0, appBundleSize: 0,
            totals: .init(packs: 0, size: 0, archiveSize: 0, initialInstallSize: 0, initialPrefetchSize: 0), tags: [],
            packs: packs.map { pack in
                BuildManifest.Pack(
                    id: pack.id, file: "OnDemandResources/\(pack.id).assetpack", tags: [pack.id], category: .onDemand,
                    priority: nil, size: 1, archiveSize: 1, archiveSha256: nil, contentHash: nil,
                    files: .init(pack.paths.map { BuildManifest.File(path: $0, size: 1, sha256: nil) }))
            })
    }

    /// `diff --html` written as it is made is `html`'s page: random builds, and names that hold `</script>` and
    /// `<!--<script>` (escaped as `\u003c` in a chunk of the data as in the whole of it), added, removed and moved.
    @Test func diffPageIsTheWholePagesBytes() throws {
        var pairs: [(BuildManifest, BuildManifest)] = [
            (
                Self.manifest([("p1", ["a", "</script>x", Self.strange]), ("p2", ["<!--<script>"])]),
                Self.manifest([("p1", ["a", "b<"]), ("p2", [Self.strange]), ("p3", ["</script>x"])])
            )
        ]
        var random = BuildDiffTests.Generator(state: 7)
        for _ in 0..<TestLevel.rounds(30, full: 200) {
            pairs.append((BuildDiffTests.build(&random), BuildDiffTests.build(&random)))
        }
        for (round, (old, new)) in pairs.enumerated() {
            let diff = BuildDiff(old: old, new: new)
            let whole = DiffReportModel(diff: diff, old: old, new: new, oldName: "v1<", newName: "v2").html
            let streamed = try DiffReportModel(
                diff: diff, old: old, new: new, oldName: "v1<", newName: "v2", fileLists: false
            ).htmlDocument.bytes()
            #expect(streamed == Array(whole.utf8), "round \(round)")
            if streamed != Array(whole.utf8) { return }
        }
        #expect(pairs.count == 1 + TestLevel.rounds(30, full: 200))
    }
}
