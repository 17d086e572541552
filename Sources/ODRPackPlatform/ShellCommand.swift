import Foundation

/// Runs a user's command through `/bin/sh -c` (the sign command, the Background Assets packager). Its output goes to
/// stderr, so stdout stays odrpack's own; it reads nothing.
package enum ShellCommand {
    /// `path` in single quotes, safe inside a shell command whatever it holds.
    package static func quoted(_ path: String) -> String {
        "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs a command through `/bin/sh -c` and returns its exit status and what it printed on stdout (stderr passes
    /// through), or nil when it could not start or was killed.
    package static func capture(_ command: String) -> (status: Int32, output: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = (try? pipe.fileHandleForReading.readToEnd()) ?? Data()
        process.waitUntilExit()
        guard process.terminationReason == .exit else { return nil }
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// - Parameter what: names the command in errors ("the sign command").
    /// - Throws: `ODRPackError.commandFailed` when it cannot start, exits non-zero or is killed.
    package static func run(_ command: String, in directory: FilePath? = nil, what: String, on subject: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        if let directory { process.currentDirectoryURL = directory.fileURL }
        process.standardOutput = FileHandle.standardError
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ODRPackError.commandFailed("cannot run \(what) through /bin/sh: \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how =
                process.terminationReason == .exit
                ? "exited with \(process.terminationStatus)"
                : "was killed by signal \(process.terminationStatus)"
            throw ODRPackError.commandFailed(
                """
                \(what) \(how) on \(subject): fix the command (it ran as: /bin/sh -c \(command)); the previous output \
                is unchanged
                """
            )
        }
    }
}
