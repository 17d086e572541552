import Foundation
import Testing
@testable import ODRPackBuild
@testable import ODRPackCore
@testable import ODRPackPlatform

/// The files beside the output that make rebuilds fast: they must read back exactly, and a damaged one is ignored.
@Suite struct BuildCacheTests {
    let stamp = FileStamp(size: 12, modificationNanoseconds: 1_700_000_000_123_456_789, changeNanoseconds: -5,
                          inode: UInt64.max, device: 2049)

    @Test func theCacheReadsBackExactlyAndDamageEmptiesIt() throws {
        var cache = BuildCache()
        cache.rootPath = "/tmp/ünï\tcode"
        cache.fingerprint = String(repeating: "ab", count: 32)
        cache.outputs = ["odrpack-manifest.json": stamp, "OnDemandResources.plist": stamp]
        cache.files = [.init(path: "A/b.png", stamp: stamp, digest: FileDigest(sha256: String(repeating: "0", count: 64), crc32: 0)),
                       .init(path: "a/é\n.json", stamp: stamp, digest: FileDigest(sha256: String(repeating: "f", count: 64), crc32: .max))]
        cache.packs = ["com.example.asset-pack-1": .init(fileName: "x.assetpack", archiveKey: "v1;auto;6", archiveSize: 99,
                                                         archiveSha256: "aa", contentHash: "bb", uncompressedSize: 1 << 40,
                                                         archiveStamp: "d" + String(repeating: "9", count: 64), files: [1, 0])]
        let data = cache.serialized()
        #expect(BuildCache.parse(data) == cache)
        #expect(cache.file(atPath: "a/é\n.json")?.digest == FileDigest(sha256: String(repeating: "f", count: 64), crc32: .max))
        #expect(cache.file(atPath: "A/b.png") != nil && cache.file(atPath: "A/b.pn") == nil && cache.file(atPath: "z") == nil)

        for cut in [0, 5, data.count / 2, data.count - 1] { #expect(BuildCache.parse(data.prefix(cut)) == nil) }
        #expect(BuildCache.parse(data + Data([0])) == nil)
        var wrongIndex = cache
        wrongIndex.packs["com.example.asset-pack-1"]!.files = [2]
        #expect(BuildCache.parse(wrongIndex.serialized()) == nil)
        #expect(BuildCache.parse(Data("odrpack-cache 1\nR\t/x\n".utf8)) == nil)
    }

    @Test func theUpToDateRecordReadsBackExactly() throws {
        var record = UpToDateRecord()
        record.inputs = "abc"
        record.rootPath = "/p/Res\\ources"
        record.realRootPath = "/real/Res\tources"
        record.treeFingerprint = "fff"
        record.outputs = ["odrpack-manifest.json": stamp, "OnDemandResources/x y.assetpack": stamp]
        record.absent = ["AssetPackManifest.plist"]
        record.packIDs = ["a", "b"]
        record.contentBytes = 1_000_000_000_000
        record.archiveBytes = 7
        record.diagnostics = [
            .warning(.entryMatchesNothing, "glob 'x\\y' matches\tno\nfile", at: SourceLocation(file: "my odrpack.yml", line: 3, column: 9),
                     subject: "x\\y"),
            .warning(.overRecommendedSize, "big", subject: nil),
            .warning(.caseCollision, "c", at: nil, subject: ""),
        ]
        #expect(UpToDateRecord.parse(record.serialized()) == record)
        #expect(UpToDateRecord.parse(Data("odrpack-up-to-date 1\nI\tabc\nZ\tq\n".utf8)) == nil)
        #expect(UpToDateRecord.parse(record.serialized().dropLast()) == nil)
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
        let location = BuildCache.location(for: project.path("out"), environment: environment)
        var cache = try #require(BuildCache.parse(try Data(contentsOf: URL(fileURLWithPath: location))))
        let index = try #require(cache.files.firstIndex { $0.path == "R/small.json" })
        cache.files[index].digest.crc32 ^= 0xFFFF
        try cache.serialized().write(to: URL(fileURLWithPath: location))
        // Another level rewrites the pack with what the cache knows of its files.
        let rebuilt = try CommandRunner.run(["build", "-o", "out", "--level", "1", "--json"], in: project.root, environment: environment)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(((try rebuilt.json()["build"] as? [String: Any])?["written"] as? [String])?.count == 1)
        let verify = try CommandRunner.run(["verify", "out"], in: project.root)
        #expect(verify.status == 0, "\(verify.stderr)")
    }
}
