import Crypto
import Foundation
import Testing

/// `make dist`'s naming and archive writer (Packaging/target.sh, Packaging/dist_archive.py; docs/install.md): the
/// target names release installers pick by themselves, the `.sha256` line as sha256sum writes it, and archive bytes
/// that depend only on the files.
@Suite struct ReleaseArchiveTests {
    static let packaging = TestPaths.repository.appendingPathComponent("Packaging")

    static func shell(_ arguments: [String], in directory: URL? = nil) throws -> CommandRunner.Output {
        try CommandRunner.run(arguments, in: directory, executable: URL(fileURLWithPath: "/usr/bin/env"))
    }

    @Test(arguments: [
        ("Linux", "x86_64", "x86_64-unknown-linux-gnu"), ("Linux", "aarch64", "aarch64-unknown-linux-gnu"),
        ("Linux", "arm64", "aarch64-unknown-linux-gnu"), ("Darwin", "arm64", "universal-apple-darwin"),
        ("Darwin", "x86_64", "universal-apple-darwin"),
    ])
    func targetNames(os: String, machine: String, target: String) throws {
        let output = try Self.shell(["sh", Self.packaging.appendingPathComponent("target.sh").path, os, machine])
        #expect(output.status == 0)
        #expect(output.stdout == target + "\n")
    }

    @Test func aMachineWithoutAReleaseIsRefused() throws {
        let output = try Self.shell(["sh", Self.packaging.appendingPathComponent("target.sh").path, "FreeBSD", "amd64"])
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("no odrpack release target for FreeBSD amd64"))
    }

    /// A copy without `.git` and without SOURCE_DATE_EPOCH has no time for the entries: `make dist` stops at once with
    /// a message, before it builds, instead of stamping every entry 1970 (docs/install.md#release-archives).
    @Test func aCopyWithoutGitOrAnEpochStopsBeforeItBuilds() throws {
        let copy = try TemporaryProject()
        let folder = URL(fileURLWithPath: copy.path("Packaging"))
        try FileManager.default.copyItem(at: Self.packaging, to: folder)
        // SWIFT=false: a build that started anyway would fail with another message.
        let unset = try Self.shell(
            ["-u", "SOURCE_DATE_EPOCH", "SWIFT=false", "bash", folder.appendingPathComponent("dist.sh").path])
        #expect(unset.status == 1)
        #expect(
            unset.stderr
                == """
                dist: no time for the archive's entries: this copy has no git history and SOURCE_DATE_EPOCH is \
                unset; set SOURCE_DATE_EPOCH (seconds since 1970, e.g. the release commit's: git log -1 \
                --format=%ct) or run make dist in a git checkout

                """)
        let wrong = try Self.shell(
            ["SOURCE_DATE_EPOCH=yesterday", "SWIFT=false", "bash", folder.appendingPathComponent("dist.sh").path])
        #expect(wrong.status == 1)
        #expect(wrong.stderr == "dist: SOURCE_DATE_EPOCH='yesterday' is not a number of seconds since 1970\n")
        #expect(!FileManager.default.fileExists(atPath: copy.path("dist")))
    }

    /// A staged release folder: a binary, a nested document, an empty folder.
    static func stage(in project: TemporaryProject, mode: Int, time: Date) throws -> URL {
        let top = URL(fileURLWithPath: project.path("stage/odrpack-1.2.3-x86_64-unknown-linux-gnu"))
        let files = [
            ("bin/odrpack", "#!/bin/sh\necho odrpack 1.2.3\n", true),
            ("share/man/man1/odrpack.1", ".TH ODRPACK 1\n", false), ("README.md", "# odrpack\n", false),
            ("LICENSE", "Apache License\n", false), ("CHANGELOG.md", "# Changelog\n", false),
        ]
        for (path, text, executable) in files {
            let url = top.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            let permissions = executable ? mode | 0o111 : mode
            try FileManager.default.setAttributes(
                [.posixPermissions: permissions, .modificationDate: time], ofItemAtPath: url.path)
        }
        try FileManager.default.createDirectory(
            at: top.appendingPathComponent("share/zsh/site-functions"), withIntermediateDirectories: true)
        return top
    }

    static func write(_ top: URL, to output: URL, epoch: Int) throws {
        let result = try shell([
            "python3", packaging.appendingPathComponent("dist_archive.py").path, top.path, output.path, "\(epoch)",
        ])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func theArchiveDependsOnlyOnItsFilesAndTheEpoch() throws {
        let first = try TemporaryProject()
        let second = try TemporaryProject()
        let a = try Self.stage(in: first, mode: 0o600, time: Date(timeIntervalSince1970: 1_000_000))
        let b = try Self.stage(in: second, mode: 0o664, time: Date(timeIntervalSince1970: 2_000_000))
        let archiveA = URL(fileURLWithPath: first.path("out/a.tar.gz"))
        let archiveB = URL(fileURLWithPath: second.path("out/a.tar.gz"))
        for url in [archiveA, archiveB] {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        try Self.write(a, to: archiveA, epoch: 1_700_000_000)
        try Self.write(b, to: archiveB, epoch: 1_700_000_000)
        #expect(try Data(contentsOf: archiveA) == Data(contentsOf: archiveB))
        let other = URL(fileURLWithPath: second.path("out/other.tar.gz"))
        try Self.write(b, to: other, epoch: 1_700_000_001)
        #expect(try Data(contentsOf: archiveA) != Data(contentsOf: other))
    }

    @Test func theChecksumFileIsWhatSha256sumWrites() throws {
        let project = try TemporaryProject()
        let top = try Self.stage(in: project, mode: 0o644, time: Date())
        let archive = URL(fileURLWithPath: project.path("odrpack-1.2.3-x86_64-unknown-linux-gnu.tar.gz"))
        try Self.write(top, to: archive, epoch: 0)
        let digest = SHA256.hash(data: try Data(contentsOf: archive)).map { String(format: "%02x", $0) }.joined()
        let line = try String(contentsOf: URL(fileURLWithPath: archive.path + ".sha256"), encoding: .utf8)
        #expect(line == "\(digest)  odrpack-1.2.3-x86_64-unknown-linux-gnu.tar.gz\n")
        let check = try Self.shell(["sha256sum", "-c", archive.lastPathComponent + ".sha256"], in: project.root)
        #expect(check.status == 0)
    }

    /// One ustar header: name (with its prefix), mode, owner, group, time and type.
    struct Entry: Equatable {
        var name: String
        var mode: Int
        var uid: Int
        var gid: Int
        var mtime: Int
        var type: UInt8
    }

    static func entries(ofTar bytes: [UInt8]) -> [Entry] {
        func text(_ range: Range<Int>, _ block: ArraySlice<UInt8>) -> String {
            let field = block[(block.startIndex + range.lowerBound)..<(block.startIndex + range.upperBound)]
            return String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
        }
        func octal(_ range: Range<Int>, _ block: ArraySlice<UInt8>) -> Int {
            Int(text(range, block).trimmingCharacters(in: .whitespaces), radix: 8) ?? -1
        }
        var found: [Entry] = []
        var offset = 0
        while offset + 512 <= bytes.count {
            let block = bytes[offset..<(offset + 512)]
            if block.allSatisfy({ $0 == 0 }) { break }
            let prefix = text(345..<500, block)
            let name = text(0..<100, block)
            let size = octal(124..<136, block)
            found.append(
                Entry(
                    name: prefix.isEmpty ? name : prefix + "/" + name, mode: octal(100..<108, block),
                    uid: octal(108..<116, block), gid: octal(116..<124, block), mtime: octal(136..<148, block),
                    type: block[block.startIndex + 156]))
            offset += 512 + (size + 511) / 512 * 512
        }
        return found
    }

    @Test func theArchiveHoldsOneFolderSortedWithOwnerZeroAndTheEpochAsTime() throws {
        let project = try TemporaryProject()
        let top = try Self.stage(in: project, mode: 0o600, time: Date())
        let archive = URL(fileURLWithPath: project.path("a.tar.gz"))
        try Self.write(top, to: archive, epoch: 1_234_567_890)
        let gzip = [UInt8](try Data(contentsOf: archive))
        // gzip: magic, deflate, no flags (no file name), modification time 0.
        #expect(Array(gzip[0..<8]) == [0x1f, 0x8b, 8, 0, 0, 0, 0, 0])
        let tar = try Self.shell(["gzip", "-dc", archive.path])
        let entries = Self.entries(ofTar: Array(tar.stdout.utf8))
        let root = "odrpack-1.2.3-x86_64-unknown-linux-gnu"
        #expect(
            entries.map(\.name) == [
                "\(root)/", "\(root)/CHANGELOG.md", "\(root)/LICENSE", "\(root)/README.md", "\(root)/bin/",
                "\(root)/bin/odrpack", "\(root)/share/", "\(root)/share/man/", "\(root)/share/man/man1/",
                "\(root)/share/man/man1/odrpack.1", "\(root)/share/zsh/", "\(root)/share/zsh/site-functions/",
            ])
        #expect(entries.allSatisfy { $0.uid == 0 && $0.gid == 0 && $0.mtime == 1_234_567_890 })
        let modes = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0.mode) })
        #expect(modes["\(root)/bin/odrpack"] == 0o755)
        #expect(modes["\(root)/README.md"] == 0o644)
        #expect(modes["\(root)/share/man/"] == 0o755)
        #expect(entries.filter { $0.type == UInt8(ascii: "5") }.count == 7)
    }
}
