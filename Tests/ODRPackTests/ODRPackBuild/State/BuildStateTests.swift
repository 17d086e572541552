import Foundation
import Testing

@testable import ODRPackBuild
@testable import ODRPackBuildFormat
@testable import ODRPackCore
@testable import ODRPackPlatform

/// The state beside the output that makes rebuilds fast: it must read back exactly, and a damaged one is ignored.
@Suite struct BuildStateTests {
    let stamp = FileStamp(
        size: 12, modificationNanoseconds: 1_700_000_000_123_456_789, changeNanoseconds: -5,
        inode: UInt64.max, device: 2049)

    @Test func theStateReadsBackExactlyAndDamageEmptiesIt() throws {
        var state = BuildState()
        state.rootPath = "/tmp/ünï\tcode"
        state.outputFingerprint = String(repeating: "ab", count: 32)
        state.outputs = ["odrpack-manifest.json": stamp, "OnDemandResources.plist": stamp]
        state.files = [
            .init(
                path: "A/b.png", stamp: stamp, digest: FileDigest(sha256: String(repeating: "0", count: 64), crc32: 0),
                pack: 0),
            .init(
                path: "a/é\n.json", stamp: stamp,
                digest: FileDigest(sha256: String(repeating: "f", count: 64), crc32: .max), pack: 0),
        ]
        state.packs = [
            "com.example.asset-pack-1": .init(
                fileName: "x.assetpack", archiveKey: "v1;auto;6", archiveSize: 99,
                archiveSha256: "aa", contentHash: "bb", uncompressedSize: 1 << 40,
                archiveStamp: "d" + String(repeating: "9", count: 64), fileCount: 2,
                manifestPart: .init(key: "k", offset: 1 << 33, length: 3)),
            "com.example.asset-pack-2": .init(
                fileName: "y.assetpack", archiveKey: "", archiveSize: 0, archiveSha256: "",
                contentHash: "", uncompressedSize: 0, archiveStamp: "", fileCount: 0),
        ]
        let data = state.serialized()
        #expect(BuildState.parse(data) == state)
        #expect(
            state.file(atPath: "a/é\n.json")?.digest
                == FileDigest(sha256: String(repeating: "f", count: 64), crc32: .max))
        #expect(
            state.file(atPath: "A/b.png") != nil && state.file(atPath: "A/b.pn") == nil
                && state.file(atPath: "z") == nil)

        // The fast path reads everything but the file records.
        var head = state
        head.files = []
        #expect(BuildState.parse(data, fileRecords: false) == head)

        for cut in [0, 5, data.count / 2, data.count - 1] { #expect(BuildState.parse(data.prefix(cut)) == nil) }
        #expect(BuildState.parse(data + Data([0])) == nil)
        // A pack holding other files than its count says, or a record naming no pack, is damage.
        var wrongCount = state
        wrongCount.packs["com.example.asset-pack-1"]!.fileCount = 1
        #expect(BuildState.parse(wrongCount.serialized()) == nil)
        var noPack = state
        noPack.files = FileRecords(
            Array(state.files).map { record in
                var record = record
                record.pack = 2
                return record
            })
        #expect(BuildState.parse(noPack.serialized()) == nil)
        #expect(BuildState.parse(Data("odrpack-cache 3\nR\t/x\n".utf8)) == nil)
    }

    /// A state written by another version of odrpack is not read at all: a new version rewrites every pack once.
    @Test func aStateOfAnotherVersionIsIgnored() throws {
        var state = BuildState()
        state.rootPath = "/r"
        let data = state.serialized()
        #expect(BuildState.parse(data) == state)
        let other = Array(
            String(decoding: data, as: UTF8.self)
                .replacingOccurrences(of: " \(ToolVersion.current)\n", with: " 0.0.1\n").utf8)
        #expect(other != data)
        #expect(BuildState.parse(other) == nil)
        // Nor one of an earlier state format by the same version (format 5 replayed no allowed warnings, format 4 kept
        // the paths apart and a list of positions per pack, format 3 held hex digests and a length per path, format 2
        // had no read start, format 1 no manifest parts).
        let earlier = Array(
            String(decoding: data, as: UTF8.self).replacingOccurrences(of: "odrpack-state 6 ", with: "odrpack-state 5 ")
                .utf8)
        #expect(earlier != data)
        #expect(BuildState.parse(earlier) == nil)
    }

    @Test func theReplayReadsBackExactly() throws {
        var state = BuildState()
        var replay = BuildState.Replay()
        replay.inputs = "abc"
        replay.rootPath = "/p/Res\\ources"
        replay.treeFingerprint = "fff"
        replay.absent = ["AssetPackManifest.plist"]
        replay.contentBytes = 1_000_000_000_000
        replay.archiveBytes = 7
        replay.diagnostics = [
            .warning(
                .entryMatchesNothing, "glob 'x\\y' matches\tno\nfile",
                at: SourceLocation(file: "my odrpack.yml", line: 3, column: 9),
                subject: "x\\y"),
            .warning(.overRecommendedSize, "big", subject: nil),
            .warning(.caseCollision, "c", at: nil, subject: ""),
        ]
        state.replay = replay
        #expect(BuildState.parse(state.serialized()) == state)
        #expect(BuildState.parse(state.serialized().dropLast()) == nil)
    }

    /// Every entry's CRC comes from the bytes in the archive: a cache that vouches for a small file with a wrong
    /// CRC (here, edited on purpose) must not put that CRC in the next archive.
    @Test func aCachedCRCThatDisagreesWithTheBytesIsNotWritten() throws {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.crc\nresources:\n  - {path: R, tags: [a]}\n")
        try project.file("R/small.json", "{\"small\": true}")
        try project.file("R/other.txt", "text")
        let cacheFolder = project.path("cache")
        let environment = ["ODRPACK_CACHE_DIR": cacheFolder]
        #expect(try CommandRunner.run(["build", "-o", "out"], in: project.root, environment: environment).status == 0)
        let location = try #require(BuildState.location(for: project.path("out"), environment: environment)).string
        var cache = try #require(BuildState.parse(try Data(contentsOf: URL(fileURLWithPath: location))))
        var records = Array(cache.files)
        let index = try #require(records.firstIndex { $0.path == "R/small.json" })
        let digest = records[index].digest
        records[index].digest = FileDigest(sha256: digest.sha256, crc32: digest.crc32 ^ 0xFFFF)
        cache.files = FileRecords(records)
        try Data(cache.serialized()).write(to: URL(fileURLWithPath: location))
        // Another level rewrites the pack with what the cache knows of its files.
        let rebuilt = try CommandRunner.run(
            ["build", "-o", "out", "--level", "1", "--json"], in: project.root, environment: environment)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(((try rebuilt.json()["build"] as? [String: Any])?["written"] as? [String])?.count == 1)
        let verify = try CommandRunner.run(["verify", "out"], in: project.root)
        #expect(verify.status == 0, "\(verify.stderr)")
    }
}
