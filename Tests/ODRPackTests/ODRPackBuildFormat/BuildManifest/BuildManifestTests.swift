import Foundation
import Testing

@testable import ODRPackBuildFormat
@testable import ODRPackCore
@testable import ODRPackFormats
@testable import ODRPackFuzzing
@testable import ODRPackPlatform

/// odrpack-manifest.json: what build writes, diff, verify and thin read back exactly, and nothing malformed passes.
@Suite struct BuildManifestTests {
    /// A manifest with every kind of value: odd strings, a priority that only round-trips exactly, no-limit nulls.
    static func sample(archives: Bool) -> BuildManifest {
        let tricky = "Levels/ünï \"quoted\" tab\there\u{1}\\back 🎮.json"
        let files = [
            BuildManifest.File(path: tricky, size: 5, sha256: archives ? String(repeating: "ab", count: 32) : nil),
            BuildManifest.File(
                path: "z/\u{7F}.bin", size: 0, sha256: archives ? String(repeating: "cd", count: 32) : nil),
        ]
        return BuildManifest(
            schemaVersion: 1, format: .odr, bundleId: "com.example.x", profile: "ios18",
            limits: LimitProfile.Key.allCases.map {
                ($0, $0 == .maxInitialInstallSize ? nil : Int64.max - Int64($0.rawValue.count))
            },
            initialInstallTags: ["a"], prefetchOrder: ["b", "ü"], appBundleFiles: 3, appBundleSize: 1 << 40,
            totals: .init(
                packs: 1, size: 5, archiveSize: archives ? 123 : nil, initialInstallSize: 5, initialPrefetchSize: 5),
            tags: [.init(name: "a", category: .initialInstall, size: 5, packs: ["p"])],
            packs: [
                .init(
                    id: "p", file: "OnDemandResources/p.assetpack", tags: ["a"], category: .initialInstall,
                    priority: 0.9500000000000001, size: 5, archiveSize: archives ? 123 : nil,
                    archiveSha256: archives ? String(repeating: "0", count: 64) : nil,
                    contentHash: archives ? String(repeating: "f", count: 64) : nil, files: .init(files))
            ])
    }

    /// What build writes, verify and diff read back as the same value: one type, both ways.
    @Test func readsBackExactlyWhatItWrites() throws {
        let written = Self.sample(archives: true)
        let text = written.serialized()
        let read = try Data(text.utf8).withUnsafeBytes { try BuildManifest(json: $0.bindMemory(to: UInt8.self)) }
        #expect(read == written)
        #expect(read.serialized() == text)
        #expect(text.contains(#""max-initial-install-size": null"#))
    }

    /// A plan's document has no archive fields at all (docs/commands.md, plan --json): it is not a build manifest, and
    /// reading it says so (docs/commands.md#verify).
    @Test func aPlanDocumentIsNotABuildManifest() throws {
        let text = Self.sample(archives: false).serialized()
        #expect(!text.contains("archiveSize") && !text.contains("contentHash") && !text.contains("sha256"))
        #expect(Self.shapeProblem(text)?.contains("missing 'totals.archiveSize' (a plan --json document") == true)
    }

    /// The shape problem reading `text` fails with; nil when it reads.
    static func shapeProblem(_ text: String) -> String? {
        do {
            _ = try Data(text.utf8).withUnsafeBytes { try BuildManifest(json: $0.bindMemory(to: UInt8.self)) }
            return nil
        } catch JSONReader.Failure.shape(let problem) {
            return problem
        } catch {
            return "\(error)"
        }
    }

    /// build writes each pack's part apart (or copies it from the last manifest) and each file list directly: the bytes
    /// of the one generic serialization, with escaped paths, an empty pack and a file without a digest.
    @Test(arguments: [true, false])
    func partsMadeApartAreTheDocumentsBytes(archives: Bool) {
        var manifest = Self.sample(archives: archives)
        var empty = manifest.packs[0]
        (empty.id, empty.files) = ("q", [])
        var undigested = manifest.packs[0]
        undigested.id = "r"
        var files = Array(undigested.files)
        files[1].sha256 = nil
        undigested.files = .init(files)
        manifest.packs += [empty, undigested]
        let reference = JSONValue.object(manifest.jsonMembers).serialized()
        #expect(manifest.serialized() == reference)
        let parts = manifest.packs.indices.map(manifest.serializedPack)
        #expect(String(decoding: manifest.serialized(packs: parts), as: UTF8.self) == reference)
        #expect(reference.contains("\"files\": []"))
    }

    @Test func skipsUnknownMembersAndDecodesSurrogatePairs() throws {
        var text = Self.sample(archives: true).serialized()
        text = text.replacingOccurrences(
            of: #""bundleId": "com.example.x""#,
            with: #""extra": {"nested": [null, true, -1.5e3]}, "bundleId": "\ud83c\udfae\u00e9""#)
        let read = try Data(text.utf8).withUnsafeBytes { try BuildManifest(json: $0.bindMemory(to: UInt8.self)) }
        #expect(read.bundleId == "🎮é")
        #expect(read.packs == Self.sample(archives: true).packs)
    }

    /// Every member a build writes must be there (docs/commands.md#verify): hashes, sizes and the summary included.
    @Test(arguments: [
        "bundleId", "initialInstallTags", "prefetchOrder", "tags", "packs", "profile", "limits", "appBundle", "totals",
        "archiveSize", "archiveSha256", "contentHash", "sha256", "priority", "initialInstallSize",
        "initialPrefetchSize",
        "max-pack-size", "files", "category",
    ])
    func aMissingMemberIsAShapeFailureNamingIt(member: String) throws {
        let text = Self.sample(archives: true).serialized().replacingOccurrences(
            of: "\"\(member)\":", with: "\"renamed-\(member)\":")
        do {
            _ = try Data(text.utf8).withUnsafeBytes { try BuildManifest(json: $0.bindMemory(to: UInt8.self)) }
            Issue.record("a manifest without '\(member)' was read")
        } catch JSONReader.Failure.shape(let problem) {
            #expect(problem.contains(member))
        }
    }

    /// `null` is never a hash or a size (docs/commands.md#verify): such a manifest once skipped every content check.
    @Test(arguments: [
        (#""sha256": "abab"#, #""sha256": null, "x": "abab"#, "a file's sha256"),
        (#""archiveSha256": "0000"#, #""archiveSha256": null, "x": "0000"#, "archiveSha256"),
        (#""contentHash": "ffff"#, #""contentHash": null, "x": "ffff"#, "contentHash"),
        (
            #""archiveSize": 123,\n      "archiveSha256""#, #""archiveSize": null,\n      "archiveSha256""#,
            "archiveSize"
        ),
        (#""size": 5,\n      "archiveSize""#, #""size": null,\n      "archiveSize""#, "a pack's size"),
        (#""sha256": "abab"#, #""sha256": "ABAB"#, "is not a lowercase hex SHA-256"),
        (#""contentHash": "ffff"#, #""contentHash": "fff"#, "is not a lowercase hex SHA-256"),
        (#""priority": 0.95"#, #""priority": 1.5, "x": 0.95"#, "priority 1.5 is not between 0 and 1"),
        (#""priority": 0.95"#, #""priority": -0.5, "x": 0.95"#, "priority -0.5 is not between 0 and 1"),
        (#""packs": 1,"#, #""packs": -1,"#, "totals.packs must not be negative"),
        (#""files": 3,"#, #""files": 99999999999999999999,"#, "appBundle.files must be a whole number"),
    ])
    func nullsAndNumbersOutOfRangeAreAFailure(original: String, malformed: String, problem: String) throws {
        let text = Self.sample(archives: true).serialized()
        let original = original.replacingOccurrences(of: "\\n", with: "\n")
        let malformed = malformed.replacingOccurrences(of: "\\n", with: "\n")
        #expect(text.contains(original), "\(original)")
        let failure = Self.shapeProblem(text.replacingOccurrences(of: original, with: malformed))
        #expect(failure?.contains(problem) == true, "\(failure ?? "read")")
    }

    /// Background Assets manifests of 0.5.0 have no `backgroundAssets.packager` (the packager's release record, which
    /// no command reads back): they still read, so the next build keeps counting self-hosted versions up. Every other
    /// member stays required, a pack's version included.
    @Test func aBackgroundAssetsManifestWithoutThePackagerRecordReads() throws {
        var manifest = Self.sample(archives: true)
        manifest.format = .backgroundAssets
        manifest.backgroundAssets = .init(
            hosting: .apple, platforms: ["iOS"], events: ["firstInstallation"], appGroup: nil, urlPrefix: nil,
            packagerCommand: "ba-package", packagerVersion: nil)
        manifest.packs[0].assetPackId = "a-12345678"
        manifest.packs[0].downloadPolicy = .essential(events: ["firstInstallation"])
        manifest.packs[0].version = 3
        let text = manifest.serialized()
        #expect(Self.shapeProblem(text) == nil)
        let packager = try #require(text.range(of: #""packager": \{[^}]*\}"#, options: .regularExpression))
        let older = text.replacingCharacters(in: packager, with: #""x": null"#)
        #expect(Self.shapeProblem(older) == nil)
        #expect(
            Self.shapeProblem(older.replacingOccurrences(of: #""version": 3"#, with: #""v": 3"#)) == "missing 'version'"
        )
        #expect(
            Self.shapeProblem(older.replacingOccurrences(of: #""appGroup": null"#, with: #""g": null"#))
                == "missing 'backgroundAssets.appGroup'")
    }

    /// A hand-written manifest that leaves out what a build writes, or carries docs/build-output.md's `"...": 0`
    /// placeholder instead of every limit, is not a build manifest: it once verified with its totals made up.
    @Test func summaryMembersMayNotBeLeftOut() throws {
        let pack =
            #"{"id": "p", "file": "OnDemandResources/p.assetpack", "tags": ["a"], "category": "initial-install", "size": 7, "files": []}"#
        let text =
            #"{"schemaVersion": 1, "bundleId": "x", "limits": {"max-pack-size": 512000000, "...": 0}, "initialInstallTags": ["a"], "prefetchOrder": [], "totals": {"packs": 2}, "tags": [], "packs": ["#
            + pack + "]}"
        #expect(Self.shapeProblem(text) == "missing 'limits.max-tag-size'")
    }

    /// Sizes that each fit in Int64 but add up past it once made diff trap (exit 132): such a manifest is corrupt.
    @Test func sizesThatAddUpPastAnExabyteAreAFailure() throws {
        var manifest = Self.sample(archives: true)
        manifest.packs[0].size = .max
        var second = manifest.packs[0]
        second.id = "q"
        manifest.packs.append(second)
        #expect(
            Self.shapeProblem(manifest.serialized()) == "its pack sizes add up to more than 1152921504606846976 bytes")
    }

    /// The fuzz target's seeds, as regression tests: read, checked as verify does, diffed into every output.
    @Test(arguments: FuzzSeeds.names("FuzzBuildManifest"))
    func theFuzzSeedReadsDiffsAndReportsWithoutCrashing(name: String) throws {
        try FuzzSeeds.seed("FuzzBuildManifest", name).withUnsafeBytes { FuzzEntryPoints.buildManifest($0) }
    }

    /// thin removes app files by these paths: only plain relative ones are read.
    @Test func pathsMustBePlainAndRelative() {
        for plain in ["a", "a/b.json", "...", "a/.hidden", "ü/🎮 x", "a..b/c."] {
            #expect(RelativePath.isPlain(plain), "\(plain)")
        }
        for crafted in ["", "/etc/passwd", "../x", "a/../../x", "a/./b", ".", "..", "a//b", "a/", "a/.."] {
            #expect(!RelativePath.isPlain(crafted), "\(crafted)")
        }
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
        if case .shape? = read(
            #"{"schemaVersion": 1, "bundleId": "x", "initialInstallTags": [], "prefetchOrder": [], "tags": [], "packs": 7}"#
        ) as? JSONReader.Failure {
        } else {
            Issue.record("a list of the wrong type is a shape problem")
        }
        #expect(read(#"{"schemaVersion": 1} trailing"#) is JSONReader.Failure)
    }

    /// A complete manifest, which every malformed input below differs from in one value only: what fails is that value,
    /// never a member the input happens to lack.
    static let complete =
        #"{"schemaVersion": 1, "bundleId": "com.x", "profile": "default", "limits": {"#
        + LimitProfile.Key.allCases.map { "\"\($0.rawValue)\": null" }.joined(separator: ", ")
        + #"}, "initialInstallTags": [], "prefetchOrder": [], "appBundle": null, "totals": {"packs": 1, "archiveSize": 1, "initialInstallSize": 0, "initialPrefetchSize": 0, "size": 1}, "tags": [], "packs": [{"id": "p", "file": "f", "tags": ["t"], "category": "on-demand", "size": 1, "priority": null, "archiveSize": 1, "archiveSha256": ""#
        + String(repeating: "0", count: 64) + #"", "contentHash": ""# + String(repeating: "0", count: 64)
        + #"", "files": [{"path": "a", "size": 1, "sha256": ""# + String(repeating: "0", count: 64)
        + #""}]}], "x": []}"#

    @Test func theCompleteManifestReads() throws {
        let bytes = Array(Self.complete.utf8)
        let manifest = try bytes.withUnsafeBufferPointer { try BuildManifest(json: $0) }
        #expect(manifest.bundleId == "com.x" && manifest.packs.first?.files.first?.path == "a")
    }

    /// Inputs that once crashed the reader or passed as clean: each is now a failure the tool reports (exit 2).
    @Test(arguments: [
        (#""bundleId": "com.x""#, #""bundleId": "\uD800\u0041""#),
        (#""bundleId": "com.x""#, #""bundleId": "\uDC00""#),
        (#""bundleId": "com.x""#, #""bundleId": "\uD800""#),
        (#""size": 1}, "tags""#, #""size": 99999999999999999999999999}, "tags""#),
        (#""size": 1}, "tags""#, #""size": 1e999}, "tags""#),
        (#""size": 1}, "tags""#, #""size": 012}, "tags""#),
        (#""totals": {"#, #""totals": truth, "t2": {"#),
        (#""bundleId": "com.x""#, "\"bundleId\": \"tab\u{9}here\""),
        (#""bundleId": "com.x""#, #""bundleId": "\x41""#),
        (#""category": "on-demand", "size": 1"#, #""category": "on-demand", "size": -1"#),
        (#""path": "a""#, #""path": "../a""#),
        (#""path": "a""#, #""path": "a\u0000b""#),
        (#""x": []"#, "\"x\": " + String(repeating: "[", count: 100_000)),
    ])
    func malformedInputIsAFailureNotACrash(replacing original: String, with malformed: String) {
        #expect(Self.complete.contains(original))
        let bytes = Array(Self.complete.replacingOccurrences(of: original, with: malformed).utf8)
        #expect(throws: (any Error).self) {
            _ = try bytes.withUnsafeBufferPointer { try BuildManifest(json: $0) }
        }
    }

    @Test func invalidUTF8InAStringIsAFailure() {
        let bytes = Array(#"{"schemaVersion": 1, "bundleId": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: JSONReader.Failure.self) {
            _ = try bytes.withUnsafeBufferPointer { try BuildManifest(json: $0) }
        }
    }

    @Test func theCrashInputsExitTwoWithAMessage() throws {
        let project = try TemporaryProject()
        try project.file("out/odrpack-manifest.json", #"{"schemaVersion": 1, "bundleId": "\uD800\u0041"}"#)
        for command in [["verify", "out"], ["diff", "out", "out"]] {
            let output = try CommandRunner.run(command, in: project.root)
            #expect(output.status == 2 && output.stderr.contains("not valid JSON"), "\(command)")
        }
    }

    /// `load` reads the file as a stream: the same model as a read from memory, in chunks of any size.
    @Test func aStreamedLoadReadsTheSameModel() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var manifest = Self.sample(archives: true)
        var mixed = manifest.packs[0]
        mixed.id = "r"
        mixed.files = .init(
            Array(mixed.files) + [
                BuildManifest.File(path: "z/a", source: "y/a", size: 3, sha256: String(repeating: "9", count: 64))
            ])
        manifest.packs.append(mixed)
        let bytes = Array(manifest.serialized().utf8)
        let path = folder + "/" + BuildManifest.fileName
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let fromMemory = try bytes.withUnsafeBufferPointer { try BuildManifest(json: $0) }
        for chunkSize in [1, 2, 7, 64, 1 << 20] {
            #expect(try BuildManifest.load(FilePath(folder), chunkSize: chunkSize).manifest == fromMemory)
        }
    }

    /// Cut at every byte, the complete manifest fails with the message a read from memory gives, streamed in chunks
    /// smaller than any token: never a crash, never a different offset or message.
    @Test func aTruncatedManifestFailsAlikeAtEveryByte() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + BuildManifest.fileName
        let bytes = Array(Self.complete.utf8)
        // Every length under make test-all; every fifth (each kind of place a cut can fall) by default.
        for end in stride(from: 0, to: bytes.count, by: TestLevel.isFull ? 1 : 5) {
            let cut = Array(bytes[..<end])
            FileManager.default.createFile(atPath: path, contents: Data(cut))
            let expected: String
            do {
                _ = try cut.withUnsafeBufferPointer { try BuildManifest(json: $0) }
                expected = "read"
            } catch {
                expected = "\(BuildManifest.loadFailure(error, file: path))"
            }
            for chunkSize in [1, 3] {
                var got = "read"
                do { _ = try BuildManifest.load(FilePath(path), chunkSize: chunkSize) } catch { got = "\(error)" }
                #expect(got == expected, "cut at \(end), chunks of \(chunkSize)")
            }
        }
    }

    /// A build folder's manifest is in it; a manifest file's paths are relative to the folder that holds it.
    @Test func theManifestIsFoundByFolderOrByFile() throws {
        let project = try TemporaryProject()
        try project.file("out/" + BuildManifest.fileName, "{}")
        let folder = FilePath(project.path("out"))
        let byFolder = try BuildManifest.location(of: folder)
        #expect(byFolder.file == folder.joined(BuildManifest.fileName))
        #expect(byFolder.folder == folder && byFolder.isFolder)
        let byFile = try BuildManifest.location(of: folder.joined(BuildManifest.fileName))
        #expect(byFile.file == folder.joined(BuildManifest.fileName))
        #expect(byFile.folder == folder && !byFile.isFolder)
        #expect(throws: ODRPackError.buildManifest(.missing(folder.joined("x")))) {
            try BuildManifest.location(of: folder.joined("x"))
        }
        #expect(BuildManifestFailure.fileName == BuildManifest.fileName)
    }

    /// A manifest that cannot be read (here a folder in its place) is an exit-2 error naming the file and the reason.
    @Test func anUnreadableManifestSaysSo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unreadable-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(
            atPath: folder + "/" + BuildManifest.fileName, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(
            throws: ODRPackError.io(.read, path: FilePath(folder).joined(BuildManifest.fileName), SystemError(EISDIR))
        ) {
            _ = try BuildManifest.load(FilePath(folder))
        }
    }

    /// The compact file list holds what it was given: paths by their bytes (NFC and NFD stay two), sources only where
    /// given, a hash per file or none, and equality by content.
    @Test func theCompactFileListHoldsEveryFileAsGiven() {
        let nfc = "caf\u{E9}.txt"
        let nfd = "cafe\u{301}.txt"
        let given = [
            BuildManifest.File(path: nfd, size: 1, sha256: nil),
            BuildManifest.File(path: nfc, source: "src/x", size: 2, sha256: String(repeating: "0a", count: 32)),
            BuildManifest.File(path: "", size: 0, sha256: nil),
            BuildManifest.File(path: "b", size: Int64.max, sha256: String(repeating: "f", count: 64)),
        ]
        let files = BuildManifest.Files(given)
        #expect(Array(files) == given)
        #expect(files.map(\.path) == [nfd, nfc, "", "b"])
        #expect(files.comparePath(0, with: 1, of: files) != 0)
        #expect(files.comparePath(0, with: 1, of: files) < 0)  // "e" (0x65) before "é" (0xC3)
        #expect(files.sameSHA256(1, as: 1, of: files) == true && files.sameSHA256(0, as: 1, of: files) == nil)
        #expect(files == BuildManifest.Files(given) && files != BuildManifest.Files(given.dropLast()))
        var changed = given
        changed[3].sha256 = String(repeating: "e", count: 64)
        #expect(files != BuildManifest.Files(changed))
        #expect(
            BuildManifest.Files(
                given.map {
                    var file = $0
                    file.sha256 = nil
                    return file
                }
            ).allSatisfy { $0.sha256 == nil })
    }

    /// Sources are kept by file index in one byte list: every file that has one gets exactly its own back (the first,
    /// the last, neighbours, a source that is only NFD-different from its path), and the files between have none.
    @Test func everySourceIsFoundByItsFileIndex() {
        var given: [BuildManifest.File] = []
        for index in 0..<1000 {
            let source: String? = index % 3 == 0 || index == 999 ? "s\u{301}/\(index)" : nil
            given.append(BuildManifest.File(path: "p/\(index)", source: source, size: Int64(index), sha256: nil))
        }
        let files = BuildManifest.Files(given)
        #expect(Array(files) == given)
        for index in [0, 1, 2, 3, 997, 998, 999] {
            let found: [UInt8]? = files.source(at: index).map { Array($0.utf8) }
            let wanted: [UInt8]? = given[index].source.map { Array($0.utf8) }
            #expect(found == wanted)
        }
        var moved = given
        moved[500].source = "elsewhere"
        #expect(files != BuildManifest.Files(moved))
        #expect(BuildManifest.Files([BuildManifest.File(path: "a", size: 1, sha256: nil)]).source(at: 0) == nil)
    }
}
