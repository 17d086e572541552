import Foundation
import Testing

@testable import ODRPackPlatform

@Suite struct LocalFileSystemTests {
    /// `odrpack diff <(git show v1:out/odrpack-manifest.json) out` hands diff a pipe: read to its end, whatever its size.
    @Test func contentsReadsAPipeToItsEnd() throws {
        let project = try TemporaryProject()
        let fifo = project.path("pipe")
        #expect(TestSystem.makeFIFO(fifo, mode: 0o600))
        let text = String(repeating: "0123456789abcdef", count: 20_000)
        let writer = Thread { TestSystem.send(text, throughFIFO: fifo) }
        writer.start()
        guard case .success(let bytes) = LocalFileSystem().contents(of: FilePath(fifo)) else {
            Issue.record("the pipe could not be read")
            return
        }
        #expect(bytes.count == 320_000 && String(decoding: bytes, as: UTF8.self) == text)
    }

    @Test func contentsOfAFileAndOfAFolder() throws {
        let project = try TemporaryProject()
        try project.file("a.json", "{}")
        #expect(try LocalFileSystem().contents(of: FilePath(project.path("a.json"))).get() == Array("{}".utf8))
        try project.file("empty", "")
        #expect(try LocalFileSystem().contents(of: FilePath(project.path("empty"))).get() == [])
        #expect(throws: SystemError(EISDIR)) { try LocalFileSystem().contents(of: FilePath(project.root.path)).get() }
        #expect(throws: SystemError(ENOENT)) {
            try LocalFileSystem().contents(of: FilePath(project.path("missing"))).get()
        }
    }
}
