import Foundation
import Testing
@testable import ODRPackBuild
@testable import ODRPackFormats

/// verify reads each archive once: the reader hashes the raw bytes as it parses them.
@Suite struct StreamingZipReaderTests {
    func sha256(_ data: Data) -> String { data.sha256Hex }

    @Test func theDigestIsTheWholeFilesWhereverParsingStopped() throws {
        let project = try TemporaryProject()
        let bytes = try Data(ZipLimitsTests().smallArchive(in: project, names: ["a/", "a/b.txt", "c.txt"]))
        let path = project.path("small.zip")
        // Read to the end of the central directory.
        let whole = try StreamingZipReader(path: path, hashing: true)
        while try whole.nextEntry() != nil { _ = try whole.readData { _ in } }
        #expect(try whole.centralDirectory().count == 3)
        let (size, digest) = try whole.digestToEnd()
        #expect(size == Int64(bytes.count) && digest == sha256(bytes))
        // Stopped by a format error in the middle: the rest is read and hashed in order.
        var broken = bytes
        broken[bytes.count / 2] ^= 0xFF
        broken.append(contentsOf: Array(repeating: 7, count: 3_000_000))
        try broken.write(to: URL(fileURLWithPath: path))
        let partial = try StreamingZipReader(path: path, hashing: true)
        _ = try? partial.nextEntry()
        let (brokenSize, brokenDigest) = try partial.digestToEnd()
        #expect(brokenSize == Int64(broken.count) && brokenDigest == sha256(broken))
    }
}
