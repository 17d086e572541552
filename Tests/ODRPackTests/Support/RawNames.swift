import Foundation

@testable import ODRPackPlatform

/// Names that are not UTF-8 (docs/architecture.md#paths), made, listed and passed to odrpack by their bytes: Foundation
/// (URL, FileManager, Process) would repair them into other names.
enum RawNames {
    /// `é` in Latin-1: one byte that is no UTF-8 on its own.
    static let e: UInt8 = 0xE9

    /// The bytes of `text` with each `%` replaced by `byte` ("caf%.txt" is `caf\xE9.txt`).
    static func bytes(_ text: String, _ byte: UInt8 = e) -> [UInt8] {
        Array(text.utf8).map { $0 == UInt8(ascii: "%") ? byte : $0 }
    }

    /// `relative` (bytes, "/"-separated) under `folder`.
    static func path(_ folder: URL, _ relative: [UInt8]) -> FilePath {
        relative.split(separator: UInt8(ascii: "/")).reduce(FilePath(folder.path)) { $0.joined(name: $1)! }
    }

    /// Writes a file, making its folders.
    static func write(_ path: FilePath, _ contents: String = "data") throws {
        try OutputFolder.makeFolder(path.parent)
        let descriptor = try SystemCall.createFile(path)
        defer { _ = SystemCall.closeFile(descriptor) }
        _ = Array(contents.utf8).withUnsafeBytes { SystemCall.writeAll(descriptor, $0) }
    }

    /// The names in `folder` as `readdir` gives them.
    static func names(in folder: FilePath) throws -> [[UInt8]] {
        try FolderNames.list(folder).map(\.bytes).sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Moves `from` to `to` (a rename).
    static func move(_ from: FilePath, to: FilePath) throws {
        if let failure = SystemCall.rename(from, to: to) { throw ODRPackError.io(.move(to: to), path: from, failure) }
    }

    /// Removes what a test made under a name Foundation cannot remove.
    static func remove(_ path: FilePath) { try? OutputFolder.remove(path) }

    /// Runs odrpack with these arguments, as bytes, in `folder`: through a shell script written as bytes, since
    /// `Process` takes its arguments and folder as text.
    static func run(_ arguments: [[UInt8]], in folder: FilePath) throws -> CommandRunner.Output {
        func quoted(_ bytes: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [UInt8(ascii: "'")]
            for byte in bytes {
                if byte == UInt8(ascii: "'") { out += Array("'\\''".utf8) } else { out.append(byte) }
            }
            return out + [UInt8(ascii: "'")]
        }
        var script = Array("cd ".utf8) + quoted(folder.bytes) + Array(" && exec ".utf8)
        script += quoted(Array(CommandRunner.executable.path.utf8))
        for argument in arguments { script += [UInt8(ascii: " ")] + quoted(argument) }
        script += Array("\n".utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("odrpack-raw-\(UUID().uuidString).sh")
        try Data(script).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try CommandRunner.run([file.path], executable: URL(fileURLWithPath: "/bin/sh"))
    }

    /// `run` of arguments given as text, with `%` for the byte.
    static func run(_ arguments: [String], in folder: FilePath) throws -> CommandRunner.Output {
        try run(arguments.map { bytes($0) }, in: folder)
    }
}
