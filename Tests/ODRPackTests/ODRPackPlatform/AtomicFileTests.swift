import Foundation
import Testing

@testable import ODRPackPlatform

/// What `--output` may name besides a plain file: a report or manifest never replaces a pipe, a device or a link.
@Suite struct AtomicFileTests {
    @Test func aPipeIsWrittenInPlaceNotReplaced() throws {
        let project = try TemporaryProject()
        let fifo = project.path("pipe")
        #expect(TestSystem.makeFIFO(fifo, mode: 0o600))
        let reader = TestSystem.openFIFOForReading(fifo)
        #expect(reader >= 0)
        defer { SystemCall.closeFile(reader) }
        try AtomicFile.write(Data("through the pipe".utf8), to: FilePath(fifo))
        #expect(String(decoding: TestSystem.readAvailable(reader, count: 64), as: UTF8.self) == "through the pipe")
        #expect(TestSystem.isFIFO(fifo))
    }

    @Test func aLinkStaysALinkAndItsTargetIsReplaced() throws {
        let project = try TemporaryProject()
        try project.file("real/report.html", "old")
        try project.symlink("link.html", to: "real/report.html")
        try AtomicFile.write(Data("new".utf8), to: FilePath(project.path("link.html")))
        #expect(try String(contentsOfFile: project.path("real/report.html"), encoding: .utf8) == "new")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: project.path("link.html")) == "real/report.html")
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.path("real")) == ["report.html"])
    }

    @Test func aFolderIsAFailureNotReplaced() throws {
        let project = try TemporaryProject()
        try project.folder("out.html")
        #expect(throws: ODRPackError.self) {
            try AtomicFile.write(Data("x".utf8), to: FilePath(project.path("out.html")))
        }
        var isFolder: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: project.path("out.html"), isDirectory: &isFolder)
                && isFolder.boolValue)
    }
}
