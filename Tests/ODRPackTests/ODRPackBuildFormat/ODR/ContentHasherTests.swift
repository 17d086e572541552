import Testing

@testable import ODRPackBuildFormat
@testable import ODRPackPlatform

/// The contentHash is SHA-256 of one `path NUL size NUL sha256 LF` record per file (docs/build-output.md): the values
/// here are Python's `hashlib.sha256` of those records, written out by hand.
@Suite struct ContentHasherTests {
    static let x = "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"
    static let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    @Test func twoRecordsHashAsTheirBytes() {
        let records = [(path: "a/b.json", size: Int64(5), sha256: Self.x), (path: "c", size: 0, sha256: Self.empty)]
        #expect(
            PackArchiveFacts.contentHash(records)
                == "adb44fe67320e47495d8f7bc5a5883ebbff9115bd42b56c89dd2de540bf81d30")
        let files = BuildManifest.Files(
            records.map { BuildManifest.File(path: $0.path, size: $0.size, sha256: $0.sha256) })
        #expect(files.contentHash() == "adb44fe67320e47495d8f7bc5a5883ebbff9115bd42b56c89dd2de540bf81d30")
    }

    /// 5,000 records (about 450 KB) cross the 64 KiB buffer several times, at record boundaries and inside records.
    @Test func manyRecordsCrossTheBufferAlike() {
        let records = (0..<5000).map {
            (
                path: "f" + String(repeating: "0", count: 5 - String($0).count) + String($0),
                size: Int64($0) * 1_000_003,
                sha256: Self.x
            )
        }
        let expected = "9b3d9c7e0e89b868818307a898f4867f4bb9d22616be5732e7300b29cbcf845a"
        #expect(PackArchiveFacts.contentHash(records) == expected)
        let files = BuildManifest.Files(
            records.map { BuildManifest.File(path: $0.path, size: $0.size, sha256: $0.sha256) })
        #expect(files.contentHash() == expected)
    }

    @Test func noFilesHashNothing() {
        #expect(PackArchiveFacts.contentHash([]) == Self.empty)
        #expect(BuildManifest.Files().contentHash() == Self.empty)
    }

    /// A plan's files have no hashes, so no contentHash; one file without a hash is enough.
    @Test func aFileWithoutAHashHasNoContentHash() {
        #expect(BuildManifest.Files([BuildManifest.File(path: "a", size: 1, sha256: nil)]).contentHash() == nil)
        let mixed = BuildManifest.Files([
            BuildManifest.File(path: "a", size: 1, sha256: Self.x), BuildManifest.File(path: "b", size: 1, sha256: nil),
        ])
        #expect(mixed.contentHash() == nil)
    }
}
