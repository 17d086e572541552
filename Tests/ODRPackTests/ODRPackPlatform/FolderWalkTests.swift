import Foundation
import Testing

@testable import ODRPackPlatform

/// `FolderWalk`: each folder before what it holds, siblings in code-point order (with "/" after a folder's name in a
/// zip's order), links reported and never followed, and a folder it cannot list is an error, not an empty folder.
@Suite struct FolderWalkTests {
    func project() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.file("a/x")
        try project.file("a-")
        try project.file("a.txt")
        try project.file(".hidden/y")
        try FileManager.default.createSymbolicLink(atPath: project.path("l"), withDestinationPath: "a")
        return project
    }

    @Test func foldersComeFirstThenSiblingsInCodePointOrder() throws {
        let project = try project()
        let walked = try FolderWalk.entries(under: project.path(""))
        #expect(walked.map(\.path) == [".hidden", ".hidden/y", "a", "a/x", "a-", "a.txt", "l"])
        #expect(walked.first { $0.path == "l" }?.status.kind == .symbolicLink)
    }

    /// "-" (2D) and "." (2E) come before "/" (2F): in a zip's order the folder "a" follows "a-" and "a.txt".
    @Test func slashedFoldersFollowTheirNamesPrefixedSiblings() throws {
        let project = try project()
        let walked = try FolderWalk.entries(under: project.path(""), slashedFolders: true)
        #expect(walked.map(\.path) == [".hidden", ".hidden/y", "a-", "a.txt", "a", "a/x", "l"])
    }

    @Test func skippedNamesAndUnenteredFoldersLeaveOutWhatTheyHold() throws {
        let project = try project()
        let walked = try FolderWalk.entries(
            under: project.path(""), skipping: { $0.hasPrefix(".") }, entering: { $0.name != "a" })
        #expect(walked.map(\.path) == ["a", "a-", "a.txt", "l"])
    }

    @Test func aFolderThatCannotBeListedIsAnError() throws {
        let project = try TemporaryProject()
        #expect(throws: ODRPackError.self) { try FolderWalk.entries(under: project.path("missing")) }
    }
}
