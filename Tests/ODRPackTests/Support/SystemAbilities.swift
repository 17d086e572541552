import Foundation

/// What this machine lets a test do that it cannot arrange itself (mount a small disk, make a file immutable),
/// decided once, before the tests that need it run: they are enabled by it, so that where the machine refuses they
/// show as skipped, and where it allows, a refusal inside the test is a failure, never a silent pass.
enum SystemAbilities {
    /// Root, and a tmpfs can be mounted here (a container may refuse `mount` even to root): the full-disk tests.
    static let canMountTmpfs: Bool = {
        guard getuid() == 0 else { return false }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("odrpack-mount-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else {
            return false
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        guard run("/bin/sh", ["-c", "mount -t tmpfs -o size=64k tmpfs '\(folder.path)'"]) else { return false }
        return run("/bin/sh", ["-c", "umount '\(folder.path)'"])
    }()

    /// `chattr +i` works on the file system of the tests' temporary projects (root, and ext4-like): the tests of a
    /// file that nothing, root included, can replace.
    static let canMakeImmutable: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr") else { return false }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("odrpack-chattr-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8)) else { return false }
        defer { try? FileManager.default.removeItem(at: file) }
        guard run("/usr/bin/chattr", ["+i", file.path]) else { return false }
        return run("/usr/bin/chattr", ["-i", file.path])
    }()

    private static func run(_ executable: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
