import Foundation

/// Runs a user's command through `/bin/sh -c` (the sign command, the Background Assets packager). Its output goes to
/// stderr, so stdout stays odrpack's own; it reads nothing.
package enum ShellCommand {
    /// `path` in single quotes, safe inside a shell command whatever it holds.
    package static func quoted(_ path: String) -> String {
        "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// What `--sign-command` (build's, per pack folder; ipa's, on the app) replaces with the quoted path.
    package static let pathPlaceholder = "{}"

    /// `template` with every `pathPlaceholder` replaced by `path` in single quotes: a sign command for one path.
    package static func filling(_ template: String, path: String) -> String {
        filling(template, with: [pathPlaceholder: path])
    }

    /// `template` with each placeholder (`{}`, `{manifest}`, ...) replaced by its value in single quotes (`quoted`),
    /// in one pass from the start, so a value that holds another placeholder's text keeps it. The one substitution
    /// of a user's command template: the sign commands' and the Background Assets packager's.
    package static func filling(_ template: String, with values: KeyValuePairs<String, String>) -> String {
        let bytes = template.utf8
        var filled = ""
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "{"),
                let (placeholder, value) = values.first(where: { bytes[index...].starts(with: $0.key.utf8) })
            {
                filled += template[start..<index] + quoted(value)
                index = bytes.index(index, offsetBy: placeholder.utf8.count)
                start = index
            } else {
                index = bytes.index(after: index)
            }
        }
        return filled + template[start...]
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
            throw ODRPackError.commandFailed(.cannotStart(what, reason: error.localizedDescription))
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let status = process.terminationStatus
            throw ODRPackError.commandFailed(
                process.terminationReason == .exit
                    ? .exited(what, status: status, on: subject, commandLine: command)
                    : .killed(what, signal: status, on: subject, commandLine: command))
        }
    }
}
