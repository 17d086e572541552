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
        let destination = FilePath(project.path("out"))
        #expect(throws: ODRPackError.self) {
            _ = try PackExtractor.extract(FilePath(project.path("small.zip")), to: destination)
        }
        #expect(SystemCall.status(destination.joined("a"), followingLinks: false) == nil)
        #expect(SystemCall.status(FilePath(project.path("x.txt")), followingLinks: false) == nil)
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
