import Foundation

/// Runs the built `odrpack` binary the way a user would, capturing output and exit status.
struct CommandRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String

        /// The stdout JSON document as a dictionary.
        func json() throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] ?? [:]
        }
    }

    /// The odrpack executable, built beside the test bundle.
    static var executable: URL {
        #if canImport(Darwin)
            // xctest runs the test bundle, which SwiftPM builds beside the products.
            let bundle =
                Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL ?? Bundle.main.bundleURL
            return bundle.deletingLastPathComponent().appendingPathComponent("odrpack")
        #else
            let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            var folder = testBinary.deletingLastPathComponent()
            while !folder.path.hasSuffix(".xctest") && folder.path != "/"
                && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("odrpack").path)
            {
                folder.deleteLastPathComponent()
            }
            if folder.path.hasSuffix(".xctest") { folder.deleteLastPathComponent() }
            return folder.appendingPathComponent("odrpack")
        #endif
    }

    @discardableResult
    static func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        executable: URL = CommandRunner.executable
    ) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["ODRPACK_CACHE_DIR"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("odrpack-test-cache").path
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("odrpack-out-\(UUID().uuidString)")
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("odrpack-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}

extension CommandRunner {
    /// Starts odrpack with `arguments` while the test holds a build folder's lock, and returns once the command says
    /// that it waits for it, with what it printed on stderr by then: the caller releases the lock, then waits for the
    /// process (`stderr` reads the rest of what it says).
    static func startWaitingForLock(_ arguments: [String], in directory: URL) throws
        -> (process: Process, said: String, stderr: FileHandle)
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        let messages = Pipe()
        process.standardError = messages
        try process.run()
        var said = ""
        // availableData returns as soon as anything arrives (read(upToCount:) waits for the whole count).
        while !said.contains("waiting for it to finish"), case let chunk = messages.fileHandleForReading.availableData,
            !chunk.isEmpty
        {
            said += String(decoding: chunk, as: UTF8.self)
        }
        return (process, said, messages.fileHandleForReading)
    }
}
