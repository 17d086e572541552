import Foundation
import Testing

@testable import ODRPackCore

/// What the pack writer does at the edges (docs/build-output.md): an entry deflate does not shrink is stored, also
/// one streamed in pieces; sizes past Int64 stop the build with `size-overflow`, never a trap.
@Suite struct PackWriterBoundsTests {
    func project(files: [(String, Data)]) throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest(
            "version: 1\nbundle-id: com.example.writer\nprofile: ios18\nresources-root: R\nresources:\n  - {path: Data, tags: [data]}\n"
        )
        for (path, bytes) in files { try project.file("R/Data/" + path, bytes: bytes) }
        return project
    }

    func entries(_ project: TemporaryProject, _ output: String) throws -> [ZipDirectory.Entry] {
        let folder = project.path(output + "/OnDemandResources")
        let archive = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
        return try ZipDirectory(path: folder + "/" + archive).entries
    }

    /// Files over the whole-entry limit (4 MiB) are deflated as they stream; random bytes grow, so the entry is
    /// written again, stored, and the archive verifies. Compressible files stay deflated.
    @Test func aStreamedEntryThatGrowsIsStored() throws {
        let size = 5 << 20
        let project = try project(files: [
            ("noise.bin", randomBytes(size, seed: 5)), ("zeros.bin", Data(count: size)), ("tiny.txt", Data("x".utf8)),
            ("empty.txt", Data()),
        ])
        for (output, options) in [("deflate", ["--compression", "deflate"]), ("auto0", ["--level", "0"])] {
            let built = try CommandRunner.run(["build", "-o", output] + options, in: project.root)
            #expect(built.status == 0, "\(built.stderr)")
            let byName = Dictionary(uniqueKeysWithValues: try entries(project, output).map { ($0.name, $0) })
            let noise = try #require(byName["Data/noise.bin"])
            #expect(noise.method == 0 && noise.compressedSize == UInt64(size), "\(output)")
            for name in ["Data/tiny.txt", "Data/empty.txt"] { #expect(byName[name]?.method == 0, "\(output) \(name)") }
            let zeros = try #require(byName["Data/zeros.bin"])
            if output == "deflate" {
                #expect(zeros.method == 8 && zeros.compressedSize < UInt64(size))
            } else {
                // `auto` at level 0: the samples say deflate, level 0's stored blocks are larger: stored.
                #expect(zeros.method == 0)
            }
            for entry in byName.values where entry.method == 8 { #expect(entry.compressedSize < entry.size) }
            let verified = try CommandRunner.run(["verify", output], in: project.root)
            #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        }
    }

    /// Three sparse files of 2^63-1 bytes (tmpfs takes them): validate, plan and build report `size-overflow`
    /// (exit 1), and the build writes nothing; it once trapped in ZipMetadata.
    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/dev/shm")))
    func sizesPastInt64AreSizeOverflowInEveryCommand() throws {
        let project = try TemporaryProject(in: URL(fileURLWithPath: "/dev/shm"))
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.huge
            resources-root: R
            resources:
              - {path: a.bin, tags: [a]}
              - {path: b.bin, tags: [b]}
              - {path: c.bin, tags: [c]}
            """)
        for name in ["a", "b", "c"] { try project.sparseFile("R/\(name).bin", size: Int64.max) }
        for command in [["validate"], ["plan"], ["build", "-o", "out"]] {
            let output = try CommandRunner.run(command, in: project.root)
            #expect(output.status == 1, "\(command): \(output.stderr)")
            #expect(output.stderr.contains("[size-overflow]"), "\(command): \(output.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: project.path("out/odrpack-manifest.json")))
    }

    /// A tag over 1 MiB makes an Info.plist `verify` refuses: plan, validate and build stop at
    /// `pack-info-too-large` (exit 1), and the build writes nothing.
    @Test func anInfoPlistVerifyWouldRefuseIsNeverWritten() throws {
        let project = try TemporaryProject()
        let tag = String(repeating: "t", count: 1_100_000)
        try project.manifest(
            "version: 1\nbundle-id: com.example.tags\nresources:\n  - {path: a.txt, tags: [\(tag)]}\n")
        try project.file("a.txt", "hello")
        for command in [["validate"], ["plan"], ["build", "-o", "out"]] {
            let output = try CommandRunner.run(command, in: project.root)
            #expect(output.status == 1, "\(command)")
            #expect(output.stderr.contains("[pack-info-too-large]"), "\(command)")
        }
        #expect(!FileManager.default.fileExists(atPath: project.path("out/OnDemandResources")))
    }

}
