import Foundation

/// `--sign-command CMD` (SPEC 7): run through `/bin/sh -c` once per written pack, with `{}` replaced by the
/// quoted path of the pack's folder form. Its output goes to stderr, so stdout stays the build's own.
struct SignCommand {
    let template: String

    init(_ template: String) { self.template = template }

    /// The shell command for one folder: every `{}` becomes the path in single quotes.
    func command(for folder: String) -> String {
        template.replacingOccurrences(of: "{}", with: "'" + folder.replacingOccurrences(of: "'", with: "'\\''") + "'")
    }

    func run(on folder: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command(for: folder)]
        process.standardOutput = FileHandle.standardError
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ODRPackError.io("cannot run the sign command through /bin/sh: \(error.localizedDescription)", errno: ENOENT)
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .exit ? "exited with \(process.terminationStatus)"
                                                         : "was killed by signal \(process.terminationStatus)"
            throw ODRPackError.io("the sign command \(how) on '\(folder)': fix the command (it ran as: /bin/sh -c \(command(for: folder))); the previous output is unchanged",
                                errno: EIO)
        }
    }
}
