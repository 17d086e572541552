import Foundation
import Testing

@testable import ODRPackBuildFormat
@testable import ODRPackCore
@testable import ODRPackFormats
@testable import ODRPackPlatform

/// docs/build-output.md#bounded: AssetPackTags.json, the Background Assets document that lists every path, is written
/// as a stream and is the bytes of `assetPackTags`, whatever the packs.
@Suite struct BackgroundAssetsDocumentsStreamingTests {
    @Test(arguments: [(0, 0), (1, 0), (3, 7), (2, 30_000)])
    func assetPackTagsStreamedIsTheDocumentsBytes(packs: Int, files: Int) throws {
        var manifest = BuildManifestStreamingTests.manifest(packs: packs, files: files, archives: true, seed: files)
        for index in manifest.packs.indices where index % 2 == 0 {
            manifest.packs[index].assetPackId = "Z-\(index)-é"
        }
        manifest.packs = manifest.packs.reversed()
        manifest.tags = [
            .init(name: "ü", category: .onDemand, size: 1, packs: manifest.packs.map(\.id)),
            .init(name: "a", category: .onDemand, size: 1, packs: []),
        ]
        let expected = Array(BackgroundAssetsDocuments.assetPackTags(manifest).utf8)
        var collected: [UInt8] = []
        var sink = DocumentSink { collected.append(contentsOf: $0) }
        try BackgroundAssetsDocuments.assetPackTagsDocument(manifest).write(&sink)
        try sink.flush()
        #expect(collected == expected)
    }

    /// A pack's ba-package manifest streamed is `packageManifest`'s bytes: no files, odd paths, many files, each policy.
    @Test(arguments: [0, 1, 3, 25_000])
    func packageManifestStreamedIsTheDocumentsBytes(files: Int) throws {
        let paths = (0..<files).reversed().map { "Levels/\($0)" + ($0 % 5 == 0 ? " \"é\"\t🎮.json" : ".json") }
        for (policy, platforms) in [
            (DownloadPolicy.onDemand, []), (.essential(events: ["firstInstallation"]), ["iOS", "macOS"]),
            (.prefetch(events: []), ["iOS"]),
        ] {
            let expected = Array(
                BackgroundAssetsDocuments.packageManifest(
                    assetPackID: "world-ü", policy: policy, paths: paths, platforms: platforms
                ).utf8)
            let streamed = try BackgroundAssetsDocuments.packageManifestDocument(
                assetPackID: "world-ü", policy: policy, paths: { paths }, platforms: platforms
            ).bytes()
            #expect(streamed == expected)
        }
    }
}
