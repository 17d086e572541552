import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackBuildFormat
@testable import ODRPackStore

/// The store commands' checks throw the facts of what they refuse (`ODRPackError.upload`, `.ipa`), asserted here on
/// the library called directly; their words are pinned once, in UploadFailureMessageTests and ODRPackErrorTests.
@Suite struct StoreFailureCaseTests {
    /// A Background Assets pack whose archive is `file` in the build folder.
    static func pack(_ id: String, file: String) -> BuildManifest.Pack {
        var pack = BuildManifest.Pack(
            id: id, file: file, tags: [id], category: .onDemand, priority: nil, size: 1, archiveSize: nil,
            archiveSha256: nil, contentHash: nil, files: .init())
        pack.assetPackId = id
        return pack
    }

    @Test func anUploadRecordThatIsNoRecordIsRecordDamaged() throws {
        let project = try TemporaryProject()
        try project.file(UploadRecord.fileName, "{\"schemaVersion\": 99, \"packs\": {}}")
        let folder = FilePath(project.root.path)
        #expect(
            ODRPackError.thrown { _ = try UploadRecord.load(folder: folder) }
                == .upload(.recordDamaged(folder.joined(UploadRecord.fileName))))
    }

    @Test func anArchiveIsCheckedForItsIDItsBytesAndItsSignatureBeforeAnyRequest() throws {
        let project = try TemporaryProject()
        let folder = FilePath(project.root.path)
        try project.file("empty.aar", "")
        try project.file("text.aar", "not an archive")
        #expect(
            ODRPackError.thrown {
                _ = try BackgroundAssetsUpload.archive(Self.pack("level_1", file: "x.aar"), folder: folder)
            }
                == .upload(.assetPackIDCharacters("level_1")))
        #expect(
            ODRPackError.thrown {
                _ = try BackgroundAssetsUpload.archive(Self.pack("p", file: "empty.aar"), folder: folder)
            }
                == .upload(.archiveEmpty(folder.joined("empty.aar"))))
        #expect(
            ODRPackError.thrown {
                _ = try BackgroundAssetsUpload.archive(Self.pack("p", file: "text.aar"), folder: folder)
            }
                == .upload(.notAppleArchive(pack: "p", path: folder.joined("text.aar"))))
    }

    @Test func ipaRefusesAnAppThatIsNoFolderByNameAndAPathTheSignCommandCannotTake() throws {
        let project = try TemporaryProject()
        let root = FilePath(project.root.path)
        #expect(ODRPackError.thrown { _ = try AppCopy.copyFolder("/", into: root) } == .ipa(.notAnAppFolder("/")))
        // Not below the current folder, and not UTF-8: no text names it.
        let app = try #require(FilePath(bytes: Array("/nonexistent-".utf8) + [0xE9] + Array("/A.app".utf8)))
        #expect(ODRPackError.thrown { _ = try IPABuilder.commandText(of: app) } == .ipa(.signCommandPathNotText(app)))
    }
}
