import Foundation
import ODRPackFormats
import Testing

@testable import ODRPackPlatform

/// Odd and hostile project trees: each gives its diagnostic code, and none crashes.
@Suite struct HostileInputTests {
    func project(_ entries: String, extra: String = "") throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.x\nresources-root: R\nresources:\n\(entries)\(extra)")
        try project.folder("R")
        return project
    }

    @Test func missingPathIsPathNotFound() throws {
        let project = try project("  - {path: Levels/Missing, tags: [a]}\n")
        let result = try project.plan()
        #expect(result.codes == ["path-not-found"])
        #expect(result.diagnostics[0].location?.line == 5)
        #expect(result.diagnostics[0].location?.column == 12)
    }

    /// Sparse files on tmpfs can each be nearly Int64.max bytes; their sum once trapped (exit 132). Sums hold at
    /// Int64.max, which is over every limit: an error, not a crash. Runs where /dev/shm takes such files.
    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/dev/shm")))
    func sizesThatAddUpPastInt64AreOverTheLimitsNotACrash() throws {
        let project = try TemporaryProject(in: URL(fileURLWithPath: "/dev/shm"))
        try project.manifest(
            "version: 1\nbundle-id: com.example.x\nresources-root: R\nresources:\n  - {path: a.bin, tags: [a]}\n  - {path: b.bin, tags: [b]}\n"
        )
        try project.sparseFile("R/a.bin", size: Int64.max)
        try project.sparseFile("R/b.bin", size: Int64.max)
        try project.sparseFile("R/c.bin", size: Int64.max)
        let result = try project.plan()
        #expect(result.plan?.totalSize == Int64.max)
        #expect(result.plan?.appBundleSize == Int64.max)
        #expect(result.codes.contains("pack-too-large") && result.codes.contains("total-too-large"))
        for command in [["plan"], ["validate", "--json"], ["report", "-o", "report.html"], ["build", "-o", "out"]] {
            #expect(try CommandRunner.run(command, in: project.root).status == 1, "\(command)")
        }
    }

    @Test func missingResourcesRoot() throws {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.x\nresources-root: Nowhere\n")
        let result = try project.plan()
        #expect(result.codes == ["path-not-found"])
        #expect(result.diagnostics[0].location?.line == 3)
    }

    @Test func symlinkLeavingTheRootIsAnError() throws {
        let project = try project("  - {path: ., tags: [a]}\n")
        try project.file("outside.txt", "secret")
        try project.symlink("R/link.txt", to: project.path("outside.txt"))
        try project.file("R/inside/real.txt", "ok")
        try project.symlink("R/alias.txt", to: "inside/real.txt")
        let result = try project.plan()
        #expect(result.codes == ["path-outside-root"])
        #expect(result.diagnostics[0].subject == "link.txt")
        // A link that stays inside is followed: the file appears under both names.
        #expect(result.resolution?.resources.map(\.path) == ["alias.txt", "inside/real.txt"])
    }

    @Test func symlinkLoopsAreReportedNotFollowedForever() throws {
        let project = try project("  - {path: ., tags: [a]}\n")
        try project.file("R/dir/file.txt", "x")
        try project.symlink("R/dir/up", to: "..")
        try project.symlink("R/self", to: "self")
        let result = try project.plan()
        #expect(result.codes.sorted() == ["file-unreadable", "file-unreadable"])
        #expect(Set(result.diagnostics.compactMap(\.subject)) == ["dir/up", "self"])
        #expect(result.resolution?.resources.map(\.path) == ["dir/file.txt"])
    }

    @Test func brokenSymlinkIsUnreadable() throws {
        let project = try project("  - {path: ., tags: [a]}\n")
        try project.symlink("R/gone.png", to: "nothing-here.png")
        try project.file("R/real.png")
        #expect(try project.plan().codes == ["file-unreadable"])
    }

    /// Permissions bind only a user other than root, so as root the binary runs as `nobody` (setpriv).
    @Test(
        .enabled(if: SystemCall.userID != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")),
        arguments: [("R/locked.bin", 0o000), ("R/Sealed", 0o000), ("R/NoSearch", 0o644)])
    func unreadableEntriesAreFileUnreadable(path: String, mode: Int) throws {
        let project = try project("  - {path: ., tags: [a]}\n")
        try project.file("R/ok.txt", "fine")
        try project.file(path.hasSuffix(".bin") ? path : path + "/inside.txt", "x")
        TestSystem.setMode(project.path(path), mode)
        defer { TestSystem.setMode(project.path(path), 0o755) }
        let arguments = ["validate", "--json"]
        let output: CommandRunner.Output
        if SystemCall.userID == 0 {
            output = try CommandRunner.run(
                ["--reuid=65534", "--regid=65534", "--clear-groups", CommandRunner.executable.path] + arguments,
                in: project.root, executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
        } else {
            output = try CommandRunner.run(arguments, in: project.root)
        }
        #expect(output.status == 1, "\(output.stderr)")
        let diagnostics = try #require(try output.json()["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["file-unreadable"])
        #expect((diagnostics.first?["message"] as? String)?.contains("Permission denied") == true)
    }

    @Test func executableContentInATaggedFile() throws {
        let project = try project("  - {path: bin, tags: [a]}\n")
        try project.file("R/bin/tool.elf", bytes: Data([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0]))
        try project.file("R/bin/app.macho", bytes: Data([0xCF, 0xFA, 0xED, 0xFE, 7, 0, 0, 1]))
        try project.file("R/bin/fat", bytes: Data([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2]))
        try project.file("R/bin/Java.class", bytes: Data([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52]))
        var pe = Data(count: 128)
        pe[0] = 0x4D
        pe[1] = 0x5A
        pe[60] = 64
        pe[64] = 0x50
        pe[65] = 0x45
        try project.file("R/bin/setup.exe", bytes: pe)
        try project.file("R/bin/notes.txt", "MZ is just text here")
        try project.file("R/app-only.elf", bytes: Data([0x7F, 0x45, 0x4C, 0x46]))  // untagged: stays in the app
        let result = try project.plan()
        #expect(
            result.diagnostics(.executableContent).map(\.subject) == [
                "bin/app.macho", "bin/fat", "bin/setup.exe", "bin/tool.elf",
            ])
        #expect(result.codes.allSatisfy { $0 == "executable-content" })
    }

    /// The check reads a folder's files through one open folder: files at the root, in nested folders and in
    /// folders that sort between each other's files are each judged by their own bytes.
    @Test func executableContentIsFoundInEveryFolder() throws {
        let project = try project("  - {path: ., tags: [a]}\n")
        let elf = Data([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0])
        try project.file("R/root.elf", bytes: elf)
        try project.file("R/a.txt", "text")
        try project.file("R/x/b.txt", "text")
        try project.file("R/x/y/c.elf", bytes: elf)
        try project.file("R/x/y/d.txt", "text")
        try project.file("R/x/z.elf", bytes: elf)
        try project.file("R/x-y/e.elf", bytes: elf)
        let result = try project.plan()
        #expect(
            result.diagnostics(.executableContent).map(\.subject) == ["root.elf", "x-y/e.elf", "x/y/c.elf", "x/z.elf"])
        #expect(result.codes.allSatisfy { $0 == "executable-content" })
    }

    @Test func nonUTF8FileNameIsReportedWithoutACrash() throws {
        let project = try project("  - {path: ., tags: [a]}\n")
        let name = project.path("R") + "/bad-\u{FFFD}".replacingOccurrences(of: "\u{FFFD}", with: "")
        let bytes = Array(name.utf8) + [0xFF, 0xFE, 0x2E, 0x70, 0x6E, 0x67, 0]
        // APFS refuses names that are not UTF-8: there, no such file can exist, so there is nothing to report.
        guard TestSystem.createFile(rawPath: Array(bytes.dropLast())) else { return }
        try project.file("R/good.png")
        let result = try project.plan()
        #expect(result.codes == ["file-unreadable"])
        #expect(result.diagnostics[0].message.contains("not valid UTF-8"))
    }

    @Test func emptyResourcesFolderAndEmptyFolderEntry() throws {
        let project = try project("  - {path: Empty, tags: [a]}\n  - {glob: \"**/*.caf\", tags: [b]}\n")
        try project.folder("R/Empty")
        let result = try project.plan()
        #expect(result.codes == ["entry-matches-nothing", "entry-matches-nothing"])
        #expect(result.plan?.packs.isEmpty == true)
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning })
    }

    @Test func zeroByteFilesArePacked() throws {
        let project = try project("  - {path: ., tags: [a]}\n")
        try project.file("R/empty.json", "")
        try project.file("R/also-empty", "")
        let result = try project.plan()
        #expect(result.diagnostics.isEmpty)
        #expect(result.plan?.packs.first?.files.map(\.size) == [0, 0])
        #expect(result.plan?.totalSize == 0)
    }

    @Test func unknownInitialOrPrefetchTag() throws {
        let project = try project(
            "  - {path: ., tags: [level1]}\n", extra: "initial-install: [levl1]\nprefetch-order: [level9]\n")
        try project.file("R/a.json")
        let result = try project.plan()
        #expect(result.codes == ["tag-unknown", "tag-unknown"])
        #expect(result.diagnostics[0].message.contains("did you mean 'level1'?"))
        #expect(result.diagnostics.map(\.location?.line) == [6, 7])
    }

    /// Whether the folder holds a name spelled exactly so (a case-insensitive volume keeps one of two spellings).
    func holds(_ folder: String, _ name: String) -> Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains { $0.hasSameBytes(as: name) }
    }

    @Test func caseCollisionInOnePack() throws {
        let project = try project("  - {path: ., tags: [a]}\n")
        try project.file("R/Hero.png")
        try project.file("R/hero.png")
        let result = try project.plan()
        // On a volume that ignores case the two writes made one file: one resource, nothing collides.
        let both = holds(project.path("R"), "Hero.png") && holds(project.path("R"), "hero.png")
        #expect(result.codes == (both ? ["case-collision"] : []))
        #expect(result.resolution?.resources.count == (both ? 2 : 1))
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning })
    }

    @Test func nonASCIICaseCollision() throws {
        let project = try project("  - {path: ., tags: [a]}\n")
        try project.file("R/Ünïcode/Éclair.png")
        try project.file("R/ünïcode/éclair.png")
        try project.file("R/ünïcode/other.png")
        let result = try project.plan()
        guard holds(project.path("R"), "Ünïcode") && holds(project.path("R"), "ünïcode") else {
            #expect(result.codes.isEmpty)
            return
        }
        #expect(result.codes == ["case-collision"])
        #expect(result.diagnostics.first?.message.contains("'Ünïcode/Éclair.png' and 'ünïcode/éclair.png'") == true)
    }

    /// A NUL would end the name a C call sees, so two names would reach one file: the manifest refuses it, and the
    /// platform layer refuses any name that holds one (EINVAL), whatever let it through.
    @Test func aNulNeverReachesTheFileSystem() throws {
        let project = try TemporaryProject()
        try project.manifest(
            "version: 1\nbundle-id: com.example.x\nresources-root: \"R\\0x\"\nresources:\n  - {path: \"a\\0b\", tags: [a]}\n  - {glob: \"*\\0\", tags: [b]}\n  - {path: a, tags: [\"t\\0\"]}\n"
        )
        try project.file("R/a", "x")
        let result = try project.plan()
        #expect(
            result.codes == [
                "manifest-invalid-value", "manifest-invalid-value", "manifest-invalid-value", "tag-invalid",
            ], "\(result.diagnostics)")
        #expect(result.diagnostics.allSatisfy { $0.severity == .error })
        let named = project.path("R/a")
        // Text holding a NUL never becomes a path: `FilePath(text)` would stop at the NUL and reach `named`.
        #expect(FilePath(checking: named + "\0ignored") == nil)
        #expect(FilePath(checking: named + "\0") == nil)
        #expect(FilePath(bytes: Array((named + "\0").utf8)) == nil)
        #expect(FileManager.default.fileExists(atPath: named))
    }
}
