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
        guard case .success(let bytes) = LocalFileSystem().contents(of: FilePath(fifo), limit: 1 << 20) else {
            Issue.record("the pipe could not be read")
            return
        }
        #expect(bytes.count == 320_000 && String(decoding: bytes, as: UTF8.self) == text)
    }

    @Test func contentsOfAFileAndOfAFolder() throws {
        let project = try TemporaryProject()
        try project.file("a.json", "{}")
        #expect(
            try LocalFileSystem().contents(of: FilePath(project.path("a.json")), limit: 16).get() == Array("{}".utf8))
        try project.file("empty", "")
        #expect(try LocalFileSystem().contents(of: FilePath(project.path("empty")), limit: 16).get() == [])
        #expect(throws: SystemError(EISDIR)) {
            try LocalFileSystem().contents(of: FilePath(project.root.path), limit: 16).get()
        }
        #expect(throws: SystemError(ENOENT)) {
            try LocalFileSystem().contents(of: FilePath(project.path("missing")), limit: 16).get()
        }
    }

    /// Every whole read has a bound: a file over it (a 1 TiB sparse one at once) and `/dev/zero` fail with EFBIG; a
    /// file of exactly the bound is read.
    @Test func contentsStopsAtItsBound() throws {
        let project = try TemporaryProject()
        try project.file("seventeen", String(repeating: "x", count: 17))
        try project.file("sixteen", String(repeating: "x", count: 16))
        #expect(throws: SystemError(EFBIG)) {
            try LocalFileSystem().contents(of: FilePath(project.path("seventeen")), limit: 16).get()
        }
        #expect(try LocalFileSystem().contents(of: FilePath(project.path("sixteen")), limit: 16).get().count == 16)
        #expect(throws: SystemError(EFBIG)) { try LocalFileSystem().contents(of: "/dev/zero", limit: 1 << 20).get() }
        try project.sparseFile("sparse", size: 1 << 40)
        #expect(throws: SystemError(EFBIG)) {
            try LocalFileSystem().contents(of: FilePath(project.path("sparse")), limit: 1 << 20).get()
        }
    }
}
