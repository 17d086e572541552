import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// SPEC 7, Bounded: every command holds at most 300 MB at 1,000,000 files, so what a command holds per file must stay
/// far below 300 bytes. Measured as the growth of each command's peak resident memory between a small and a large
/// tree of the same shape, divided by the files added: the fixed costs (the binary, the runtime, I/O buffers) cancel
/// out. `make bench-scale` shows the same curve at 100k, 300k and 1M files with the release binary.
@Suite(.serialized)
struct BoundedMemoryTests {
    /// Bytes of peak memory a command may add per file (paths here are ~40 bytes). The release binary at 1M files
    /// stays within 300 MB with this per-file cost; a regression to holding a document or a second copy of every
    /// resource (0.6.0: 500-1,200 bytes a file) fails.
    static let bytesPerFile = 260
    static let smallCount = 4_000
    static let largeCount = 44_000

    @Test func everyCommandsMemoryGrowsByAFewHundredBytesAFile() throws {
        let small = try ScaleTree(files: Self.smallCount)
        let large = try ScaleTree(files: Self.largeCount)
        let smallPeaks = try small.peaks()
        let largePeaks = try large.peaks()
        for (command, smallPeak) in smallPeaks {
            let largePeak = try #require(largePeaks[command])
            let perFile = (largePeak - smallPeak) / (Self.largeCount - Self.smallCount)
            #expect(
                perFile <= Self.bytesPerFile,
                "\(command): \(smallPeak / 1024) KB at \(Self.smallCount) files, \(largePeak / 1024) KB at \(Self.largeCount): \(perFile) bytes a file"
            )
        }
    }
}

/// A project of `files` small level files in 8 tags, built once, with a copy of its manifest before one file changed.
private struct ScaleTree {
    let project: URL
    let files: Int

    init(files: Int) throws {
        self.files = files
        project = FileManager.default.temporaryDirectory.appendingPathComponent("odrpack-bounded-\(UUID().uuidString)")
        let worlds = 8
        var manifest = "version: 1\nbundle-id: com.example.bounded\nresources-root: Resources\nresources:\n"
        for world in 0..<worlds { manifest += "  - path: World\(world)\n    tags: [world\(world)]\n" }
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try manifest.write(to: project.appendingPathComponent("odrpack.yml"), atomically: false, encoding: .utf8)
        for index in 0..<files {
            let folder = "Resources/World\(index % worlds)/Levels/Chunk\(String(format: "%04d", index / 1000))"
            if index < worlds * 1000 || index % 1000 < worlds {
                try FileManager.default.createDirectory(
                    at: project.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            let name = project.path + "/\(folder)/level\(String(format: "%06d", index)).json"
            let text = "{\"level\": \(index), \"seed\": \(index &* 2_654_435_761 % 1_000_003)}\n"
            // open(2) and write(2): FileManager.createFile takes milliseconds a file.
            let descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            try #require(descriptor >= 0, "open \(name): \(errno)")
            let written = text.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
            close(descriptor)
            try #require(written == text.utf8.count, "write \(name)")
        }
    }

    /// Peak resident bytes of build (clean), build (nothing changed), validate, verify and diff.
    func peaks() throws -> [String: Int] {
        defer { try? FileManager.default.removeItem(at: project) }
        let cache = project.appendingPathComponent("cache").path
        let out = project.appendingPathComponent("out").path
        let manifest = project.appendingPathComponent("odrpack.yml").path
        var peaks: [String: Int] = [:]
        peaks["build"] = try Self.peak(["build", manifest, "-o", out, "--progress", "never"], cache: cache)
        peaks["build (no change)"] = try Self.peak(["build", manifest, "-o", out, "--progress", "never"], cache: cache)
        peaks["validate"] = try Self.peak(["validate", manifest], cache: cache)
        peaks["verify"] = try Self.peak(["verify", out], cache: cache)
        peaks["diff"] = try Self.peak(["diff", out, out], cache: cache)
        return peaks
    }

    /// Runs odrpack and returns its peak resident memory in bytes (wait4's ru_maxrss), requiring exit 0.
    static func peak(_ arguments: [String], cache: String) throws -> Int {
        let executable = CommandRunner.executable.path
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let variables = ["ODRPACK_CACHE_DIR=\(cache)", "NO_COLOR=1", "PATH=/usr/bin:/bin"]
        let environment: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { for pointer in environment { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environment)
        try #require(spawned == 0, "posix_spawn: \(spawned)")
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            try #require(errno == EINTR, "wait4: \(errno)")
        }
        try #require(status == 0, "odrpack \(arguments.joined(separator: " ")) exited with status \(status)")
        return usage.ru_maxrss * 1024
    }
}
