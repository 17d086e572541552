import Foundation
import Testing

@testable import ODRPackBuild
@testable import ODRPackBuildFormat
@testable import ODRPackCore
@testable import ODRPackPlatform

/// docs/build-output.md#bounded: an ODR build writes odrpack-manifest.json from its plan and facts a pack at a time
/// and OnDemandResources.plist object by object; the files hold exactly the bytes of the whole-document writers, on a
/// first build and on a rebuild that copies unchanged packs' parts from the previous manifest.
@Suite struct DocumentStreamingTests {
    @Test func theStreamedDocumentsAreTheWholeDocumentsBytes() throws {
        let project = try BuildCommandTests().gameProject()
        var options = BuildOptions(
            outputDirectory: project.path("out"), format: .odr, environment: ProcessInfo.processInfo.environment)
        options.useCache = true
        for round in 0..<2 {
            if round == 1 { try project.file("R/Level1/extra.json", "{\"changed\": true}") }
            let result = try ProjectPlanner().plan(manifestPath: project.manifestPath, format: .odr)
            let plan = try #require(result.plan)
            let built = try PackBuilder(options: options).build(
                plan, rootPath: try #require(result.resolution?.rootPath))
            // What the next build reuses from: where each pack's part went in this manifest.
            _ = built.state.save(forOutput: options.outputPath, environment: options.environment)
            let whole = BuildManifest(plan: plan, archives: built.facts)
            let manifest = try Data(contentsOf: URL(fileURLWithPath: project.path("out/odrpack-manifest.json")))
            #expect(manifest == Data(whole.serializedBytes()), "round \(round)")
            #expect(built.manifest == whole)
            let source = OnDemandResourcesOutput.ManifestSource(plan: plan, facts: built.facts)
            #expect(source.outline.packs.allSatisfy { $0.files.isEmpty })
            let streamed = try DocumentSink.bytes { sink in
                _ = try source.outline.write(to: &sink, pack: { source.pack($0).packs[0] })
            }
            #expect(Data(streamed) == manifest)
            let plist = try Data(contentsOf: URL(fileURLWithPath: project.path("out/OnDemandResources.plist")))
            #expect(plist == AppleManifests.onDemandResources(plan).binaryData())
            #expect(
                AppleManifests.onDemandResourcesDocument(plan).compare(
                    withFileAt: FilePath(project.path("out/OnDemandResources.plist"))) == .same)
        }
    }

    /// A rebuild copies an unchanged pack's part from the previous manifest a chunk at a time: exactly the recorded
    /// bytes; with another key nothing is written and the part is made anew.
    @Test func aPartIsCopiedFromThePreviousManifestInChunks() throws {
        let reuse = EntryReuseTests()
        let project = try reuse.project()
        let first = try reuse.build(project, after: nil)
        let path = project.path("out/" + BuildManifest.fileName)
        let document = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let manifest = try document.withUnsafeBufferPointer { try BuildManifest(json: $0) }
        let parts = try #require(PreviousManifestParts(path: FilePath(path), previous: first.state))
        for (index, pack) in manifest.packs.enumerated() {
            let key = try #require(manifest.partKey(index))
            var copied = false
            let bytes = try DocumentSink.bytes { copied = try parts.copyPart(id: pack.id, key: key, into: &$0) }
            #expect(copied && bytes == manifest.serializedPack(index))
            let none = try DocumentSink.bytes { copied = try parts.copyPart(id: pack.id, key: key + "0", into: &$0) }
            #expect(!copied && none.isEmpty)
        }
    }
}
