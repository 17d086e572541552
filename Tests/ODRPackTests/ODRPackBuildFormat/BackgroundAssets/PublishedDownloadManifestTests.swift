import Foundation
import Testing

@testable import ODRPackBuildFormat
@testable import ODRPackFormats
@testable import ODRPackPlatform

/// `--published FILE` (docs/background-assets.md): every entry has id, url, version and downloadSize, else the file is
/// refused (exit 2) rather than read as a download size of 0.
@Suite struct PublishedDownloadManifestTests {
    func parse(_ text: String) throws -> PublishedDownloadManifest {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { try PublishedDownloadManifest.parse($0) }
    }

    @Test func everyEntryNeedsAllFourKeys() throws {
        let whole = try parse(
            #"{"assetPacks": [{"id": "a-1", "url": "https://x/a-1-0011", "version": 3, "downloadSize": 120}]}"#)
        #expect(whole.packs["a-1"] == .init(url: "https://x/a-1-0011", version: 3, downloadSize: 120))
        for (entry, missing) in [
            (#"{"id": "a-1", "url": "https://x/a", "version": 3}"#, "'downloadSize'"),
            (#"{"id": "a-1", "url": "https://x/a", "downloadSize": 3}"#, "'version'"),
            (#"{"id": "a-1", "version": 1, "downloadSize": 3}"#, "'url'"),
            (#"{"url": "https://x/a", "version": 1, "downloadSize": 3}"#, "'id'"),
        ] {
            #expect {
                try parse(#"{"assetPacks": [\#(entry)]}"#)
            } throws: { error in
                guard case .shape(let text) = error as? JSONReader.Failure else { return false }
                return text.contains(missing)
            }
        }
    }

    /// Through `load`: such a file is exit 2 (`buildInput`), naming what is missing.
    @Test func aFileWithoutDownloadSizeIsUnusable() throws {
        let project = try TemporaryProject()
        try project.file("live.json", #"{"assetPacks": [{"id": "a-1", "url": "https://x/a", "version": 3}]}"#)
        #expect {
            try PublishedDownloadManifest.load(FilePath(project.path("live.json")))
        } throws: { error in
            guard case .buildInput(.publishedNotADownloadManifest(let path, let problem)) = error as? ODRPackError
            else {
                return false
            }
            return path == FilePath(project.path("live.json")) && problem.contains("downloadSize")
        }
    }

    /// Through `load`: a file that is missing or not JSON is thrown as its facts, the path as given.
    @Test func aMissingOrBrokenFileIsThrownAsItsFacts() throws {
        let project = try TemporaryProject()
        let missing = FilePath(project.path("missing.json"))
        #expect(throws: ODRPackError.buildInput(.publishedUnreadable(missing, SystemError(ENOENT)))) {
            try PublishedDownloadManifest.load(missing)
        }
        try project.file("broken.json", "{")
        let broken = FilePath(project.path("broken.json"))
        #expect(throws: ODRPackError.buildInput(.publishedNotJSON(broken))) {
            try PublishedDownloadManifest.load(broken)
        }
    }

    /// Sizes past Int64 are thrown as `size-overflow`, never a trap.
    @Test func sizesPastInt64AreThrownAsTheirFact() {
        #expect(throws: ODRPackError.buildInput(.sizeOverflow)) {
            try ZipMetadata(count: 2, sizes: [Int64.max, 1])
        }
    }
}
