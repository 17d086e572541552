import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackBuildFormat
@testable import ODRPackFormats
@testable import ODRPackReport
@testable import ODRPackThin

/// thin's removed files are indices into the build manifest, not paths (SPEC 7, "Bounded": a million removed files
/// hold no list of a String each): what they are, their order, and that the result reports the same paths.
@Suite struct RemovedFilesTests {
    static func files(_ paths: [String]) -> BuildManifest.Files {
        BuildManifest.Files(paths.map { BuildManifest.File(path: $0, source: nil, size: 1, sha256: nil) })
    }

    /// 8 bytes a removed file; the paths sorted by their UTF-8 bytes (code-point order, "Z" before "a" before "é",
    /// a prefix first) across packs, each made from the manifest's own, under the resources path.
    @Test func eightBytesAFileSortedByPathAcrossPacks() {
        #expect(MemoryLayout<RemovedFiles.Entry>.stride == 8)
        let packs = [Self.files(["b/x.json", "é.json", "a/z"]), Self.files(["Z.png", "a/z/deep", "a"])]
        let entries = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)].map { RemovedFiles.Entry(pack: $0, file: $1) }
        let removed = RemovedFiles(packs: packs, prefix: "Data/", entries: entries)
        #expect(
            Array(removed) == ["Data/Z.png", "Data/a", "Data/a/z", "Data/a/z/deep", "Data/b/x.json", "Data/é.json"])
        #expect(
            removed.entries
                == [(1, 0), (1, 2), (0, 2), (1, 1), (0, 0), (0, 1)].map {
                    RemovedFiles.Entry(pack: $0, file: $1)
                })
        #expect(removed.relativePath(at: 0) == "Z.png")
        #expect(RemovedFiles().isEmpty)
    }

    /// `thin --json`'s "removed", serialized a path at a time, is the bytes of the array of strings it replaces:
    /// escapes (a quote, a tab, a backslash), non-ASCII, one path, none.
    @Test func theJSONArrayIsTheStringsArraysBytes() {
        let packs = [Self.files(["a \"q\"\t.json", "b\\c/é🎮.png", "z"])]
        for entries in [[], [(0, 2)], [(0, 0), (0, 1), (0, 2)]] {
            let removed = RemovedFiles(
                packs: packs, prefix: "Data/", entries: entries.map { RemovedFiles.Entry(pack: $0, file: $1) })
            let document = JSONValue.object([("removed", ThinReport.removedArray(removed))])
            #expect(document.serialized() == JSONValue.object([("removed", .strings(Array(removed)))]).serialized())
        }
    }

    /// A dry run of the game's app: the result's removed files are the manifest's own (pack, file) pairs, one for
    /// each of the 6 packed files (UI/menu.json stays in the app), and read as the sorted paths the report prints.
    @Test func theResultHoldsIndicesIntoTheManifest() throws {
        let project = try ThinCommandTests().builtGame()
        var options = AppThinner.Options(appPath: FilePath(project.path("Game.app")), buildPath: project.path("out"))
        options.dryRun = true
        let result = try AppThinner(options: options).run(
            try BuildFolderSession.open(forReading: FilePath(options.buildPath)))
        let (manifest, _) = try BuildManifest.load(FilePath(project.path("out")))
        #expect(result.removed.count == 6)
        #expect(
            Array(result.removed) == [
                "Level1/music.caf", "Level1/scene.json", "Level2/Deep/texture.png", "Level2/scene.json",
                "Shared/paddle.png", "Tutorial/ünïcode name.json",
            ])
        for (index, entry) in result.removed.entries.enumerated() {
            #expect(manifest.packs[Int(entry.pack)].files.path(at: Int(entry.file)) == result.removed[index])
        }
        #expect(FileManager.default.fileExists(atPath: project.path("Game.app/Level1/scene.json")))
    }
}

/// The app's files are checked a chunk at a time: any chunk size, across its boundaries, finds the same files.
@Suite struct PackedFilesChunkTests {
    @Test(arguments: [1, 2, 5, 6, 7, 1 << 16]) func everyChunkSizeFindsTheSameFiles(chunkSize: Int) throws {
        let project = try ThinCommandTests().builtGame()
        let thinner = AppThinner(
            options: AppThinner.Options(appPath: FilePath(project.path("Game.app")), buildPath: project.path("out")))
        let (manifest, _) = try BuildManifest.load(FilePath(project.path("out")))
        let found = try thinner.packedFiles(of: manifest, in: try thinner.locate(), chunkSize: chunkSize)
        let paths = found.toRemove.map { manifest.packs[Int($0.pack)].files.path(at: Int($0.file)) }
        #expect(
            paths.sorted() == [
                "Level1/music.caf", "Level1/scene.json", "Level2/Deep/texture.png", "Level2/scene.json",
                "Shared/paddle.png", "Tutorial/ünïcode name.json",
            ])
        #expect(found.removedBytes == manifest.packs.flatMap { pack in pack.files.map(\.size) }.reduce(0, +))
        #expect(found.diagnostics.isEmpty && found.unmatchedPacks.isEmpty)
    }
}
