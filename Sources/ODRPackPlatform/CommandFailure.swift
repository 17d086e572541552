/// Why a command odrpack runs for the user (`--sign-command`, the Background Assets packager) failed, is missing, or
/// broke the rules its output must follow (docs/build-output.md), as a fact of `ODRPackError.commandFailed`: the
/// command's role as said in messages ("the sign command"), its status or signal, the pack, the file, the path it
/// should have written. The sentence is made from the facts in one place, `description`.
package enum CommandFailure: Sendable, Equatable, CustomStringConvertible {
    /// The command (its role) could not be started through /bin/sh: Foundation's words for why.
    case cannotStart(String, reason: String)
    /// The command (its role) exited with this status on the subject (a pack or an app, as shown); the command line
    /// it ran as.
    case exited(String, status: Int32, on: String, commandLine: String)
    /// The command (its role) was killed by this signal on the subject (as shown); the command line it ran as.
    case killed(String, signal: Int32, on: String, commandLine: String)
    /// The sign command removed this file (its path in the pack) from the pack (its short name); whether the previous
    /// output is said to be unchanged (it is once the pack's folder was checked, before the commit).
    case signerRemoved(String, pack: String, previousOutputUnchanged: Bool)
    /// The sign command changed the bytes of this file (its path in the pack) in the pack (its short name).
    case signerChanged(String, pack: String)
    /// The Background Assets packager exited 0 but wrote no archive (or an empty one) at this path for this pack (its
    /// asset pack id).
    case packagerWroteNoArchive(pack: String, archive: FilePath)
    /// Neither `ba-package` nor `xcrun ba-package` is found: whether xcrun is on PATH (Xcode before 26).
    case noPackager(xcrunOnPath: Bool)
    /// The packager found (`ba-package` or `xcrun ba-package`) failed its `--version`.
    case packagerVersionFailed(program: String)

    /// What to do when no Background Assets packager can be used.
    private static let howToInstall = """
        install Xcode 26 or later (or its command line tools) on a Mac, which bring 'xcrun ba-package', or pass \
        --ba-package CMD with {manifest} and {output} where the pack's manifest and archive go; nothing was \
        written
        """

    package var description: String {
        switch self {
        case .cannotStart(let what, let reason): return "cannot run \(what) through /bin/sh: \(reason)"
        case .exited(let what, let status, let subject, let commandLine):
            return Self.failed(what, how: "exited with \(status)", on: subject, commandLine: commandLine)
        case .killed(let what, let signal, let subject, let commandLine):
            return Self.failed(what, how: "was killed by signal \(signal)", on: subject, commandLine: commandLine)
        case .signerRemoved(let file, let pack, false):
            return """
                the sign command removed '\(file)' from pack '\(pack)': a signer may add files to a pack, not remove \
                them
                """
        case .signerRemoved(let file, let pack, true):
            return """
                the sign command removed '\(file)' from pack '\(pack)': a signer may add files to a pack, not remove \
                them; the previous output is unchanged
                """
        case .signerChanged(let file, let pack):
            return """
                the sign command changed the bytes of '\(file)' in pack '\(pack)': a signer may add files to a pack, \
                not change them; the previous output is unchanged
                """
        case .packagerWroteNoArchive(let pack, let archive):
            return """
                the Background Assets packager wrote no archive for pack '\(pack)' (it exited 0, but \
                '\(archive.text)' is missing or empty): check that it writes its output where {output} says; the \
                previous output is unchanged
                """
        case .noPackager(let xcrunOnPath):
            let why =
                xcrunOnPath
                ? "ba-package is not on PATH and 'xcrun --find ba-package' does not find it (Xcode before 26)"
                : "neither ba-package nor xcrun is on PATH"
            return "no Background Assets packager: \(why). To build Background Assets packs, \(Self.howToInstall)"
        case .packagerVersionFailed(let program):
            return
                "the Background Assets packager '\(program) --version' failed, so it cannot be used: \(Self.howToInstall)"
        }
    }

    private static func failed(_ what: String, how: String, on subject: String, commandLine: String) -> String {
        """
        \(what) \(how) on \(subject): fix the command (it ran as: /bin/sh -c \(commandLine)); the previous output \
        is unchanged
        """
    }
}
