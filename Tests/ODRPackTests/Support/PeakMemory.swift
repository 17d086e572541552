import Foundation
import Testing

/// odrpack's exit status and peak resident memory (bytes), through python3's fork and wait4: a child spawned straight
/// from the test process (vfork) starts its peak at the test process's own, which runs every other test beside it; a
/// child forked from a small python3 starts at python3's, so the peak is odrpack's own. Its output is discarded.
enum PeakMemory {
    static func run(_ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:]) throws -> (
        status: Int, bytes: Int
    ) {
        let script = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, 1)
                os.dup2(null, 2)
                os.execv(sys.argv[1], sys.argv[1:])
            _, status, usage = os.wait4(pid, 0)
            print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, CommandRunner.executable.path] + arguments
        if let folder { process.currentDirectoryURL = folder }
        process.environment = environment.merging(["NO_COLOR": "1", "PATH": "/usr/bin:/bin"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = said.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(fields.count == 2, "python3 said '\(said)'")
        return (fields[0], fields[1] * 1024)
    }
}
