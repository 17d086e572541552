import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CommandRunner {
    /// Runs a bash script with `$ODRPACK` set to the built binary, as a CI step would: for redirections (`>> ci.log`)
    /// and pipes the script spells out itself.
    static func shell(_ script: String, in directory: URL) throws -> Output {
        try run(
            ["-c", "set -o pipefail\n" + script], in: directory, environment: ["ODRPACK": executable.path],
            executable: URL(fileURLWithPath: "/bin/bash"))
    }

    /// Runs odrpack with its stdout on a pipe whose only reader has already exited (`odrpack plan | head -1` once head
    /// is gone): every write to stdout meets EPIPE, deterministically, whatever the output's size.
    static func runWithClosedStdout(_ arguments: [String], in directory: URL) throws -> (status: Int32, stderr: String)
    {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EIO) }
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/true")
        reader.standardInput = FileHandle(fileDescriptor: ends[0], closeOnDealloc: false)
        try reader.run()
        reader.waitUntilExit()
        close(ends[0])
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["ODRPACK_CACHE_DIR"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("odrpack-test-cache").path
        process.environment = environment
        process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
        let errors = Pipe()
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        close(ends[1])
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: said, as: UTF8.self))
    }
}
