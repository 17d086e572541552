import Foundation
import Testing

@testable import ODRPackCore
@testable import ODRPackFormats
@testable import ODRPackPlatform
@testable import ODRPackThin

/// thin --embed and ipa lay a pack out as a folder (PackExtractor): every entry lands inside the destination, under
/// its own name, or the pack is refused.
@Suite struct PackExtractorTests {
    /// A name with a NUL (which the file system would cut there, writing "a") or one that climbs out is refused, and
    /// nothing is written under the cut name.
    @Test(arguments: ["a\u{0}b.txt", "../x.txt", "a/../../x.txt"])
    func anEntryNoFileCanBeIsRefused(name: String) throws {
        let project = try TemporaryProject()
        _ = try ZipLimitsTests().smallArchive(in: project, names: [name])
        let (pack, destination) = (FilePath(project.path("small.zip")), FilePath(project.path("out")))
        let failure: ThinFailure =
            name.utf8.contains(0)
            ? .packEntryHoldsNUL(pack, entry: name) : .packEntryLeavesPack(pack, entry: name)
        #expect(throws: ODRPackError.thin(failure)) {
            _ = try PackExtractor.extract(pack, to: destination)
        }
        #expect(SystemCall.status(destination.joined("a"), followingLinks: false) == nil)
        #expect(SystemCall.status(FilePath(project.path("x.txt")), followingLinks: false) == nil)
    }

    /// A pack that is no zip is refused with the reader's words, and a pack that is a symbolic link is neither a file
    /// nor a folder: both name the pack as the build folder holds it.
    @Test func aPackThatIsNoZipOrALinkIsRefused() throws {
        let project = try TemporaryProject()
        try project.file("bad.zip", "not a zip")
        let bad = FilePath(project.path("bad.zip"))
        do {
            _ = try PackExtractor.extract(bad, to: FilePath(project.path("out")))
            Issue.record("a pack that is no zip was extracted")
        } catch let error as ODRPackError {
            guard case .thin(.unreadablePack(let pack, let reason)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(pack == bad && !reason.isEmpty)
        }
        try FileManager.default.createSymbolicLink(atPath: project.path("link.zip"), withDestinationPath: "bad.zip")
        let link = FilePath(project.path("link.zip"))
        #expect(throws: ODRPackError.thin(.packNotFileOrFolder(link))) {
            _ = try PackExtractor.extract(link, to: FilePath(project.path("out2")))
        }
    }

    /// The entries go under the destination's own bytes, even where its name is not UTF-8 ("c\xE9"): its repaired
    /// text would name another folder.
    @Test func aDestinationWhoseNameIsNotUTF8HoldsTheFiles() throws {
        let project = try TemporaryProject()
        _ = try ZipLimitsTests().smallArchive(in: project, names: ["a/", "a/b.txt"])
        let destination = try #require(FilePath(project.root.path).joined(name: [0x63, 0xE9]))
        let bytes = try PackExtractor.extract(FilePath(project.path("small.zip")), to: destination)
        #expect(bytes == 5)
        #expect(SystemCall.status(destination.joined("a/b.txt"), followingLinks: false)?.kind == .regular)
        #expect(SystemCall.status(FilePath(destination.text), followingLinks: false) == nil)
    }
}
